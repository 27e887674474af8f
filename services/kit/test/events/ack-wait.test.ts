// How long a killed replica's event waits before another replica gets it is the operator's
// choice, and a setting that makes no sense stops the process instead of being guessed at.
import { eventsAckWaitMs } from '../../src/events/bus.js';

describe('the events ack wait', () => {
  it('is 30 s unless ANVIL_EVENTS_ACK_WAIT_MS says otherwise', () => {
    expect(eventsAckWaitMs({})).toBe(30_000);
    expect(eventsAckWaitMs({ ANVIL_EVENTS_ACK_WAIT_MS: '5000' })).toBe(5_000);
  });

  it('refuses a value that is not whole milliseconds or is under a second', () => {
    for (const bad of ['soon', '2.5', '999', '-1']) {
      expect(() => eventsAckWaitMs({ ANVIL_EVENTS_ACK_WAIT_MS: bad })).toThrow(/ANVIL_EVENTS_ACK_WAIT_MS/);
    }
  });
});
