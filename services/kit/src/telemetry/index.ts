export * from './tracing.js';
export * from './grpc.js';
