// docs/gateway-protocol.md §8 (OCR), §11 (its limits).
import { isString, mayBe } from '../call/field-checks';
import { refuseUnknownOptions } from '../call/option-groups';
import { toBinaryInput } from '../encoding/binary-input';
import { invalidRequest } from '../errors/errors';
import { LIMITS } from '../protocol/limits';
import type { OcrRequest } from '../protocol/wire-types';

/** The fields of an `ocr` request: any other key is refused, not dropped (it would not be sent). */
const OCR_FIELDS: readonly (keyof OcrRequest)[] = ['image', 'model'];

/** docs/gateway-protocol.md §8: base64 image that decodes to 1 byte .. 23 MiB. Returns the base64 text to send. */
export async function validateOcrRequest(request: OcrRequest): Promise<string> {
  if (typeof request !== 'object' || request === null)
    throw invalidRequest('request', 'must be an object');
  refuseUnknownOptions(request, OCR_FIELDS, 'ocr request', 'call option');
  // null: not given, not sent
  if (request.model !== null) mayBe('model', request.model, isString, 'a string');
  if (request.image === undefined || request.image === null) {
    throw invalidRequest('image', 'is required (bytes, Blob or base64 string)');
  }
  const input = toBinaryInput('image', request.image);
  if (input.size < 1)
    throw invalidRequest('image', 'decodes to 0 bytes; at least 1 byte is required');
  if (input.size > LIMITS.ocrMaxImageBytes) {
    throw invalidRequest(
      'image',
      `decodes to ${input.size} bytes; the limit is ${LIMITS.ocrMaxImageBytes} bytes (23 MiB)`,
    );
  }
  return input.base64();
}
