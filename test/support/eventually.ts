// For what the system does a moment after answering (an event's consumer writing a read model
// or a notification thread): read again until the check holds, failing with the last value
// after a generous deadline (the machine may be shared and slow; never a timing assertion).
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what} never happened; last: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
