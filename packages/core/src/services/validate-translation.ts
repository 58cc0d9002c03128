// docs/gateway-protocol.md §7 (translation), §11 (its limits).
import { isString, mayBe } from '../call/field-checks';

import { utf8ByteLength } from '../encoding/utf8';
import { checkWellFormed } from '../encoding/well-formed-text';
import { invalidRequest } from '../errors/errors';
import { LIMITS } from '../protocol/limits';
import type { TranslationRequest } from '../protocol/wire-types';
import { validateTranslationLanguages } from './service-tools';

const ALLOWED_FIELDS: ReadonlySet<string> = new Set([
  'input',
  'target_language',
  'source_language',
  'model',
]);

/** docs/gateway-protocol.md §7: input 1 character .. 4096 UTF-8 bytes, language codes, and no other fields. */
export function validateTranslationRequest(request: TranslationRequest): void {
  if (typeof request !== 'object' || request === null) {
    throw invalidRequest('request', 'must be an object');
  }
  for (const key of Object.keys(request)) {
    if (!ALLOWED_FIELDS.has(key)) {
      throw invalidRequest(
        key,
        'is not allowed: a translation request takes only input, target_language, source_language and model',
      );
    }
  }
  const { input } = request;
  if (typeof input !== 'string') {
    throw invalidRequest(
      'input',
      `must be a string, got ${input === null ? 'null' : typeof input}`,
    );
  }
  if (input.length < 1) throw invalidRequest('input', 'is empty; at least 1 character is required');
  checkWellFormed('input', input);
  const bytes = utf8ByteLength(input);
  if (bytes > LIMITS.translationMaxInputBytes) {
    throw invalidRequest(
      'input',
      `is ${bytes} bytes in UTF-8; the limit is ${LIMITS.translationMaxInputBytes} bytes`,
    );
  }
  validateTranslationLanguages(request);
  // `null`: not given, as OCR's and transcription's `model` (left out of the body).
  if (request.model !== null) mayBe('model', request.model, isString, 'a string');
}
