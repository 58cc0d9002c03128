/**
 * The OCR and speech-to-text request preparation (input checks, base64, audio sniffing,
 * multipart). The client loads this module on first use, so that a bundler with code splitting
 * can keep it out of a chat-only app's main chunk.
 */
export { buildTranscriptionBody } from './build-transcription-body';
export { validateOcrRequest } from './validate-ocr';
export { validateTranscriptionRequest } from './validate-transcription';
