export * from './tracing.js';
export * from './grpc.js';
export * from './events.js';
export * from './metrics.js';
