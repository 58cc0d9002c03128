// docs/gateway-protocol.md §4.1 (`response_format`), §5 (a streamed answer as content-block events).
/** What `loadLaterParts` (load-lazily.ts) loads, in one chunk. */
export { structuredOutputRunnable } from '../chat_models/structured-output-runnable';
export { convertToChatModelEvents } from '../converters/convert-to-chat-model-events';
