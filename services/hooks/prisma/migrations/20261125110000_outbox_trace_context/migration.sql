-- The W3C trace context of the change that wrote the event, so the trace continues
-- through the relay, NATS and the consumers. Null for events written outside a trace.
ALTER TABLE "outbox_event" ADD COLUMN "trace_context" TEXT;
