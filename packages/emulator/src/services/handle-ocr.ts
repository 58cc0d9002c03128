// docs/gateway-protocol.md §8 (OCR).
import { isJsonObject } from '../chat/validate-chat-request';
import { invalidField, jsonResponse } from '../gateway-error';
import { contentType, isJsonContent, type RequestContext, readJson } from '../request-context';
import { decodeBase64Field, markerText } from './binary-input';
import { detectLanguage, occupyService } from './service-availability';

const IMAGE_KINDS: [string, number[]][] = [
  ['PNG', [0x89, 0x50, 0x4e, 0x47]],
  ['JPEG', [0xff, 0xd8, 0xff]],
  ['GIF', [0x47, 0x49, 0x46, 0x38]],
  ['WEBP', [0x52, 0x49, 0x46, 0x46]],
  ['BMP', [0x42, 0x4d]],
  ['TIFF', [0x49, 0x49, 0x2a, 0x00]],
  ['TIFF', [0x4d, 0x4d, 0x00, 0x2a]],
  ['PDF', [0x25, 0x50, 0x44, 0x46]],
];

function imageKind(bytes: Uint8Array): string {
  const found = IMAGE_KINDS.find(([, magic]) => magic.every((byte, i) => bytes[i] === byte));
  return found ? found[0] : 'unknown';
}

/**
 * POST /ocr (JSON only). The text is what follows a `TEXT:` marker in the image bytes, else a
 * description of the image (`[PNG image, 1234 bytes]`).
 */
export function handleOcr(ctx: RequestContext): Response {
  const type = contentType(ctx.request);
  // JSON as every JSON endpoint reads it (no Content-Type, `+json` too); never a form.
  if (!isJsonContent(ctx.request)) {
    throw invalidField(
      'content-type',
      `The OCR endpoint takes JSON only ({"image_base64": ...}); got Content-Type '${type || 'none'}'`,
    );
  }
  const body = readJson(ctx);
  if (!isJsonObject(body)) throw invalidField('body', 'The request body must be a JSON object');
  const image = decodeBase64Field('image_base64', body.image_base64);
  occupyService(ctx, 'ocr');
  const marked = markerText(image, 'TEXT:');
  const text = marked ?? `[${imageKind(image)} image, ${image.length} bytes]`;
  return jsonResponse({
    text,
    model: 'emulator-ocr',
    confidence: marked === undefined ? 0.5 : 0.98,
    language: detectLanguage(text),
  });
}
