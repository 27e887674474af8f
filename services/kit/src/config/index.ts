export * from './load.js';
export type { Settings } from './schema.js';
