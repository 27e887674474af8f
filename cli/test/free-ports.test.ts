// Ports for services that bind seconds after the ports were picked (after migrations):
// nothing may hand the same port to two of them in that window.
import { freePorts, pickRange } from '../src/net.js';

describe('picking free ports', () => {
  it('never hands out a port this process handed out a moment ago', async () => {
    const seen = new Set<number>();
    for (let round = 0; round < 20; round += 1) {
      for (const port of await freePorts(10)) {
        expect(seen.has(port)).toBe(false);
        seen.add(port);
      }
    }
  });

  it('gives parallel test workers disjoint stretches of ports below the ephemeral range', () => {
    const stretches = ['1', '2', '3', '4'].map((worker) => pickRange(worker));
    for (const [i, a] of stretches.entries()) {
      expect(a.from + a.span).toBeLessThanOrEqual(32_768);
      for (const b of stretches.slice(i + 1)) expect(a.from + a.span <= b.from || b.from + b.span <= a.from).toBe(true);
    }
    // Outside a test worker (pnpm start), the whole stretch.
    expect(pickRange('')).toEqual({ from: 20_000, span: 12_000 });
  });
});
