// docs/gateway-protocol.md §6 (embeddings), §7 (translation), §8 (OCR), §9 (transcription), §4.8.
/**
 * What `loadServiceParts` (load-lazily.ts) loads: the services' calls, and the reading of a JSON
 * answer asked for with no schema, in one chunk.
 */
export { jsonAnswerText, jsonTextStream } from '../chat/json-answer-text';
export { embedValues } from '../embedding/embed-values';
export * from '../tools/service-calls';
export { transcribeAudio } from '../transcription/transcribe-audio';
