// Types of e2e-global-teardown.mjs (plain JavaScript: jest loads it untransformed).
export default function teardown(): Promise<void>;
