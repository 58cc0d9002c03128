// docs/gateway-protocol.md §6 (embeddings), §11.
import { isJsonObject } from '../chat/validate-chat-request';
import { GatewayRefusal, invalidField, jsonResponse } from '../gateway-error';
import { type RequestContext, readJson, requireJsonContent } from '../request-context';
import { type EngineSpec, ownEntry } from '../scenario';
import { hashedEmbedding } from './hashed-embedding';
import { occupyService, utf8Length } from './service-availability';

const MAX_TEXTS = 64;
const MAX_TOTAL_BYTES = 65_536;

function readTexts(input: unknown): string[] {
  const texts = typeof input === 'string' ? [input] : input;
  if (!Array.isArray(texts)) {
    throw invalidField('input', '`input` is required: a string or an array of strings');
  }
  if (texts.length < 1 || texts.length > MAX_TEXTS) {
    throw invalidField(
      'input',
      `\`input\` has ${texts.length} items; between 1 and ${MAX_TEXTS} are allowed`,
    );
  }
  let total = 0;
  texts.forEach((text, i) => {
    if (typeof text !== 'string')
      throw invalidField(`input[${i}]`, `\`input[${i}]\` must be a string`);
    if (text.length < 1) {
      throw invalidField(
        `input[${i}]`,
        `\`input[${i}]\` is empty; at least 1 character is required`,
      );
    }
    total += utf8Length(text);
  });
  if (total > MAX_TOTAL_BYTES) {
    throw invalidField(
      'input',
      `\`input\` is ${total} bytes in UTF-8 in total; the limit is ${MAX_TOTAL_BYTES} bytes`,
    );
  }
  return texts as string[];
}

function chooseEngine(ctx: RequestContext, model: unknown): [string, EngineSpec] {
  const engines = ctx.scenario.services.embeddings.engines;
  const available = Object.entries(engines).filter(([, engine]) => engine.available !== false);
  if (model === undefined || model === null) {
    if (available.length === 1) return available[0]!;
    if (available.length === 0) {
      throw new GatewayRefusal('provider_unavailable', 'No embedding engine is available now');
    }
    throw invalidField(
      'model',
      `\`model\` is required when more than one engine is available: ${available.map(([id]) => id).join(', ')}`,
    );
  }
  if (typeof model !== 'string') throw invalidField('model', '`model` must be an engine id string');
  const engine = ownEntry(engines, model);
  if (!engine) {
    throw new GatewayRefusal(
      'model_not_found',
      `Embedding engine '${model}' does not exist; available: ${available.map(([id]) => id).join(', ')}`,
    );
  }
  if (engine.available === false) {
    throw new GatewayRefusal(
      'provider_unavailable',
      `Embedding engine '${model}' is unavailable now`,
    );
  }
  return [model, engine];
}

/** POST /embeddings: hashed bag-of-words vectors (see `hashedEmbedding`). */
export function handleEmbeddings(ctx: RequestContext): Response {
  requireJsonContent(ctx);
  const body = readJson(ctx);
  if (!isJsonObject(body)) throw invalidField('body', 'The request body must be a JSON object');
  const texts = readTexts(body.input);
  const [engineId, engine] = chooseEngine(ctx, body.model);

  if (typeof engine.maxTextBytes === 'number') {
    texts.forEach((text, i) => {
      const bytes = utf8Length(text);
      if (bytes > engine.maxTextBytes!) {
        throw invalidField(
          `input[${i}]`,
          `\`input[${i}]\` is ${bytes} bytes in UTF-8; engine '${engineId}' takes at most ${engine.maxTextBytes} bytes per text`,
        );
      }
    });
  }
  const dimensions = body.dimensions ?? engine.dimensions[0];
  if (typeof dimensions !== 'number' || !engine.dimensions.includes(dimensions)) {
    throw invalidField(
      'dimensions',
      `\`dimensions\` ${JSON.stringify(body.dimensions)} is not offered by engine '${engineId}'; use one of ${engine.dimensions.join(', ')}`,
    );
  }
  let inputType: string | undefined;
  if (engine.inputTypes && body.input_type !== undefined && body.input_type !== null) {
    if (body.input_type !== 'document' && body.input_type !== 'query') {
      throw invalidField('input_type', "`input_type` must be 'document' or 'query'");
    }
    inputType = body.input_type;
  }
  occupyService(ctx, 'embeddings', { id: engineId, capacity: engine.capacity });

  const marker = engine.inputTypes ? (inputType ?? 'document') : undefined;
  let tokens = 0;
  const data = texts.map((text, index) => {
    tokens += text.split(/\s+/).filter(Boolean).length;
    return { object: 'embedding', index, embedding: hashedEmbedding(text, dimensions, marker) };
  });
  return jsonResponse({
    object: 'list',
    model: engineId,
    data,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}
