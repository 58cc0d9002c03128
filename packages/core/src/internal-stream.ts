// docs/gateway-protocol.md §5 (streamed chat completions: the SSE events and their chunks), §4.8.
/**
 * `@infergate/core/internal/stream`: the SSE decoder of chat streams, for other transports and
 * the benchmarks, and the one fence rule for a JSON answer asked for with no schema, which the
 * AI SDK adapter loads on such a call (`jsonInText` for a whole answer, `jsonTextEvents` for a
 * stream's events). An entry of its own, apart from `@infergate/core/internal`: the adapters
 * import that one at start, and none of this is on a plain chat's path (core loads the decoder
 * with the first stream). UNSTABLE, as `internal` is.
 */
export { ChatStreamDecoder } from './chat/stream/chat-stream-decoder';
export { jsonInText } from './steering/json-in-text';
export { jsonTextEvents } from './steering/json-text-events';
