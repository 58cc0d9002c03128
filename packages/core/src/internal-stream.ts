// docs/gateway-protocol.md §5 (streamed chat completions: the SSE events and their chunks).
/**
 * `@infergate/core/internal/stream`: the SSE decoder of chat streams, for other transports and
 * the benchmarks. An entry of its own, apart from `@infergate/core/internal`: the adapters import
 * that one at start, and the decoder is a fifth of the chat path that only a stream loads (core
 * loads it with the first stream). UNSTABLE, as `internal` is.
 */
export { ChatStreamDecoder } from './chat/stream/chat-stream-decoder';
