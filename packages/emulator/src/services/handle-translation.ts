// docs/gateway-protocol.md §7 (translation).
import { isJsonObject } from '../chat/validate-chat-request';
import { invalidField, jsonResponse, shownValue } from '../gateway-error';
import { type RequestContext, readJson, requireJsonContent } from '../request-context';
import { detectLanguage, occupyService, utf8Length } from './service-availability';

const LANGUAGE_CODE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
const MAX_INPUT_BYTES = 4096;
const ALLOWED_FIELDS = new Set(['input', 'target_language', 'source_language', 'model']);

function languageField(field: string, value: unknown): string {
  if (typeof value !== 'string' || !LANGUAGE_CODE.test(value)) {
    throw invalidField(
      field,
      `\`${field}\` must be a language code matching ^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$, got ${shownValue(value)}`,
    );
  }
  return value;
}

/**
 * POST /translations. The scripted translation is `[<target>] <input>`, or the input unchanged
 * when source and target are the same language.
 */
export function handleTranslation(ctx: RequestContext): Response {
  requireJsonContent(ctx);
  const body = readJson(ctx);
  if (!isJsonObject(body)) throw invalidField('body', 'The request body must be a JSON object');
  for (const field of Object.keys(body)) {
    if (!ALLOWED_FIELDS.has(field)) {
      throw invalidField(
        field,
        `Field \`${field}\` is not allowed; a translation request takes only input, target_language, source_language and model`,
      );
    }
  }
  const { input } = body;
  if (typeof input !== 'string') throw invalidField('input', '`input` is required: a string');
  if (input.length < 1)
    throw invalidField('input', '`input` is empty; at least 1 character is required');
  const bytes = utf8Length(input);
  if (bytes > MAX_INPUT_BYTES) {
    throw invalidField(
      'input',
      `\`input\` is ${bytes} bytes in UTF-8; the limit is ${MAX_INPUT_BYTES} bytes`,
    );
  }
  const target = languageField('target_language', body.target_language);
  // Optional fields are strings when present: `null` is no omission (no other values are allowed).
  const source =
    body.source_language === undefined
      ? detectLanguage(input)
      : languageField('source_language', body.source_language);
  if (body.model !== undefined && typeof body.model !== 'string') {
    throw invalidField('model', '`model` must be a string (it is ignored)');
  }
  occupyService(ctx, 'translation');
  const same = source.split('-')[0]!.toLowerCase() === target.split('-')[0]!.toLowerCase();
  return jsonResponse({
    object: 'translation',
    text: same ? input : `[${target}] ${input}`,
    source_language: source,
    target_language: target,
  });
}
