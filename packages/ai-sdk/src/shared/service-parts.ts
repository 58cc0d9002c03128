// docs/gateway-protocol.md §6 (embeddings), §7 (translation), §8 (OCR), §9 (transcription).
/** What `loadServiceParts` (load-lazily.ts) loads: the services' calls, in one chunk. */
export { embedValues } from '../embedding/embed-values';
export * from '../tools/service-calls';
export { transcribeAudio } from '../transcription/transcribe-audio';
