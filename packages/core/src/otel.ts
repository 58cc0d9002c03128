// `@infergate/core/otel`: the client's events as OpenTelemetry spans and metrics. A separate entry
// so that `@opentelemetry/api` (an optional peer dependency) is loaded only by those who import it.
export { INSTRUMENTATION_SCOPE, type OtelEventsOptions, otelEvents } from './otel/otel-events';
