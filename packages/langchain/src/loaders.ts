/**
 * `@infergate/langchain/loaders`: document loaders reading text from images (OCR) and audio
 * (speech to text) through the gateway.
 */
export {
  GatewayAudioTranscriptLoader,
  type GatewayAudioTranscriptLoaderFields,
} from './loaders/gateway-audio-transcript-loader';
export { GatewayOcrLoader, type GatewayOcrLoaderFields } from './loaders/gateway-ocr-loader';
