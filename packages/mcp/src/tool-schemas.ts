// docs/gateway-protocol.md §4.1 (`ask_model`'s request), §6 to §9 (the services' requests), §11
// (their limits): what each tool takes.
import { LANGUAGE_CODE, LIMITS } from '@infergate/core';
import { closeMatches, quotedName } from '@infergate/core/internal';
import {
  serviceToolArgumentsProblem,
  validateTranslationLanguages,
} from '@infergate/core/internal/service-tools';
import { z } from 'zod/v4';
import { redactMessage } from './redact-message';

/**
 * The tools' input schemas (zod, as the MCP SDK takes them; it publishes them as JSON Schema and
 * refuses arguments that do not match before a handler runs). Every limit of the gateway's spec
 * that a schema can state is stated; the byte limits a JSON Schema cannot express are refinements
 * (checked by the SDK too) and named in the field's description.
 */

const MiB = (bytes: number) => `${bytes / 1024 / 1024} MiB`;

/**
 * An optional argument. Many models' tool callers fill every optional field, with "" when they have
 * nothing to give, and strict-schema callers (OpenAI's strict function calling, its Agents SDK)
 * with null: both count as the field left out (before validation, so the media tools' one-of
 * check does not see them). The published JSON Schema is the field's own; required fields stay
 * strict.
 */
function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    schema.optional(),
  );
}

/**
 * A refusal of the arguments as it leaves the server: the SDK sends it as it is (`Input validation
 * error: …`), past the redaction of tool results, and a caller may have pasted the gateway key
 * into an argument's value or name. So every refusal the schemas word has every live client's key
 * (and URL credentials) replaced, as every other message of this server.
 */
const refusal = (text: string) => redactMessage(text);

/**
 * Why an unknown argument is not taken, when the session leaves out an argument of that name on
 * purpose (an `image_url` on a server started with `--no-urls`): said instead of the list alone.
 */
type UnknownArgumentHint = (key: string) => string | undefined;

/**
 * A tool's arguments: strict, and an unknown one refused naming it and the closest known one (core's
 * one "did you mean" search) — "unknown argument `fallbackModels` — did you mean
 * `fallback_models`?" — where the SDK's own words name the key alone; one the session leaves out
 * on purpose, with `hint`'s words why.
 */
function toolArguments<Shape extends z.ZodRawShape>(shape: Shape, hint?: UnknownArgumentHint) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? refusal(unknownArguments(issue.keys, known, hint))
        : undefined,
  });
}

/** Unknown names quoted at most (a caller may send hundreds); the rest are counted. */
const MAX_QUOTED_NAMES = 5;

/**
 * An unknown name as a refusal quotes it (core's `quotedName`: cut at 60 characters with `…`,
 * control characters escaped): a caller's key may be long or forge a line of a log.
 */
const quoted = (name: string) => quotedName(redactMessage(name), 60, undefined);

function unknownArguments(
  keys: readonly string[],
  known: readonly string[],
  hint: UnknownArgumentHint = () => undefined,
): string {
  const refusals: string[] = [];
  const far: string[] = [];
  // Names a hint gives one reason for: the reason said once, the names capped as the rest are.
  const hinted = new Map<string, string[]>();
  for (const key of keys) {
    const [closest] = closeMatches(key, known, 1);
    const why = hint(key);
    if (why !== undefined) {
      const names = hinted.get(why) ?? [];
      names.push(quoted(key));
      hinted.set(why, names);
    } else if (closest === undefined) far.push(quoted(key));
    else if (refusals.length < MAX_QUOTED_NAMES) {
      refusals.push(`unknown argument ${quoted(key)} — did you mean \`${closest}\`?`);
    } else far.push(quoted(key));
  }
  const named = [...hinted].map(([why, names]) => `unknown ${someNames(names)}: ${why}`);
  if (far.length > 0) {
    refusals.push(`unknown ${someNames(far)} (the arguments are ${known.join(', ')})`);
  }
  return [...named, ...refusals].join('; ');
}

/** `argument \`a\`` or `arguments \`a\`, \`b\`, … and 3 more`: at most five quoted names, the rest counted. */
function someNames(names: readonly string[]): string {
  const plural = names.length > 1 ? 's' : '';
  const shown = names.slice(0, MAX_QUOTED_NAMES).join(', ');
  const more =
    names.length > MAX_QUOTED_NAMES ? ` and ${names.length - MAX_QUOTED_NAMES} more` : '';
  return `argument${plural} ${shown}${more}`;
}

/**
 * A language code argument, refused with core's own message (the value quoted, the rule), as the
 * translation call refuses it.
 */
const languageCode = (field: 'target_language' | 'source_language', description: string) =>
  z
    .string()
    .regex(LANGUAGE_CODE, { error: (issue) => languageCodeProblem(field, issue.input) })
    .describe(description);

/** Core's refusal of a language code (validateTranslationLanguages), in the words of a translation call. */
function languageCodeProblem(field: string, value: unknown): string | undefined {
  try {
    validateTranslationLanguages(
      field === 'target_language'
        ? { target_language: value as string }
        : { target_language: 'en', source_language: value as string },
    );
  } catch (error) {
    return refusal((error as Error).message);
  }
  return undefined;
}

export const translateInput = toolArguments({
  text: z
    .string()
    .min(1)
    // (More characters than the limit is more bytes too: core's byte check words it, with the size.)
    .max(LIMITS.translationMaxInputBytes, {
      error: (issue) => {
        const problem = serviceToolArgumentsProblem('translate', {
          text: issue.input,
          target_language: 'en',
        });
        return problem === undefined ? undefined : refusal(problem);
      },
    })
    .describe(
      `The text to translate: at most ${LIMITS.translationMaxInputBytes} bytes of UTF-8 (split longer text and translate the parts)`,
    ),
  target_language: languageCode(
    'target_language',
    'Language to translate into, e.g. "de", "uk" or "pt-BR"',
  ),
  source_language: optional(
    languageCode('source_language', 'Language of the text; detected when omitted'),
  ),
}).superRefine(
  (args, context) => {
    // Core's check adds the byte limit of `text`; its problem names the argument it is about.
    const problem = serviceToolArgumentsProblem('translate', args);
    if (problem === undefined) return;
    const argument = /^(?:unknown argument )?"([a-z_]+)"/.exec(problem)?.[1];
    context.addIssue({
      code: 'custom',
      message: refusal(problem),
      path: argument ? [argument] : [],
    });
  },
  // Run only on arguments the schema found nothing in: its issues would come twice.
  { when: (payload) => payload.issues.length === 0 },
);

/**
 * Which ways of handing a file a session's media tools offer besides base64: `*_path` (`files`:
 * not over HTTP) and `*_url` (`urls`: not on a server that downloads nothing, `allowUrls: false`).
 */
export interface MediaOffer {
  files: boolean;
  urls: boolean;
}

/**
 * The refusal of a URL of another scheme (`ftp:`, `file:`), naming it, the rule and what to send
 * instead, as zod's bare "Invalid URL" says none of it. Text that is no URL at all keeps zod's words.
 */
function urlSchemeMessage(kind: 'image' | 'audio', files: boolean) {
  return (issue: { input?: unknown }): string | undefined => {
    if (typeof issue.input !== 'string' || !URL.canParse(issue.input)) return undefined;
    const { protocol } = new URL(issue.input);
    if (protocol === 'http:' || protocol === 'https:') return undefined;
    const ways = [`the file's bytes as ${kind}_base64`];
    if (files) ways.push(`its path as ${kind}_path (under the allowed roots)`);
    return `${kind}_url must be an http(s) URL, got a URL with scheme "${protocol}"; send an http(s) URL, or ${ways.join(', or ')}`;
  };
}

/** The ways to hand a tool an image or audio file the session offers; exactly one is given. */
function mediaFields(kind: 'image' | 'audio', limit: number, { files, urls }: MediaOffer) {
  const what = kind === 'image' ? 'image (PNG, JPEG, …)' : 'audio file (WAV, MP3 or FLAC)';
  const fields: Record<string, z.ZodType> = {};
  if (urls) {
    fields[`${kind}_url`] = optional(
      z
        .url({ protocol: /^https?$/, error: urlSchemeMessage(kind, files) })
        .describe(`An http(s) URL of the ${what}; the server downloads it (at most ${MiB(limit)})`),
    );
  }
  Object.assign(fields, {
    [`${kind}_base64`]: optional(
      // No length bound: the limit is on the decoded bytes once a data: URL prefix and line
      // breaks are removed, which core checks (naming the argument, the size and the limit).
      z
        .string()
        .min(1)
        .describe(
          `The ${what} as base64 data (a data: URL prefix and line breaks are accepted; decoded at most ${MiB(limit)})`,
        ),
    ),
  });
  if (files) {
    fields[`${kind}_path`] = optional(
      z
        .string()
        .min(1)
        .max(4096)
        .describe(
          `Path of the ${what} on this machine, under the server's allowed roots (relative paths start at the first root; at most ${MiB(limit)})`,
        ),
    );
  }
  return fields;
}

/** The media fields a session offers, in the order a refusal names them. */
export function mediaKeys(kind: 'image' | 'audio', { files, urls }: MediaOffer): string[] {
  return [...(files ? [`${kind}_path`] : []), ...(urls ? [`${kind}_url`] : []), `${kind}_base64`];
}

function exactlyOne(kind: 'image' | 'audio', offer: MediaOffer) {
  const keys = mediaKeys(kind, offer);
  return (args: Record<string, unknown>, context: z.RefinementCtx) => {
    const given = keys.filter((key) => args[key] !== undefined);
    if (given.length !== 1) {
      context.addIssue({
        code: 'custom',
        message: `give ${keys.length === 1 ? keys[0] : `exactly one of ${keys.join(', ')}`} (got ${given.length === 0 ? 'none' : given.join(', ')})`,
      });
    }
  };
}

/**
 * A URL given to a server that downloads none (`--no-urls`, `allowUrls: false`: no `*_url` is
 * offered) is refused saying so and naming the ways the session takes the file, not only as an
 * unknown argument: a model that read of `image_url` elsewhere learns why and what to send instead.
 * Any argument whose name ends in `url` (`image_url`, `url`, `imageUrl`).
 */
function noUrlsHint(kind: 'image' | 'audio', offer: MediaOffer): UnknownArgumentHint | undefined {
  if (offer.urls) return undefined;
  const ways = [`the file's bytes as ${kind}_base64`];
  if (offer.files) ways.push(`its path as ${kind}_path (under the allowed roots)`);
  const why = `this server downloads no URLs (it was started with --no-urls / allowUrls: false); send ${ways.join(', or ')}`;
  return (key) => (/url$/i.test(key) ? why : undefined);
}

export function ocrInput(offer: MediaOffer) {
  return toolArguments(
    mediaFields('image', LIMITS.ocrMaxImageBytes, offer),
    noUrlsHint('image', offer),
  ).superRefine(exactlyOne('image', offer));
}

export function transcribeInput(offer: MediaOffer) {
  return toolArguments(
    {
      ...mediaFields('audio', LIMITS.audioMaxBytes, offer),
      // Core's one rule (no pattern or length: the spec gives none), checked before sending.
      language: optional(
        z.string().describe('Spoken language code, e.g. "en" or "uk"; detected when omitted'),
      ),
      translate: optional(
        z
          .boolean()
          .describe('true returns the speech translated into English instead of a transcript'),
      ),
    },
    noUrlsHint('audio', offer),
  ).superRefine(exactlyOne('audio', offer));
}

/**
 * A list of texts to embed. The gateway's per-request limits (64 texts, 64 KiB of UTF-8) are not
 * the tool's: core's `embedMany` sends a longer list in several requests, and checks each text
 * before anything is sent.
 */
function embeddingTexts(description: string) {
  return z
    .array(z.string().min(1))
    .min(1)
    .describe(`${description}: one or more non-empty texts, ${PER_TEXT_LIMIT}`);
}

/** The limit of one text (and of a query), core's: stated so that a model splits long documents first. */
const PER_TEXT_LIMIT = `each at most ${LIMITS.embeddingsMaxTotalBytes} bytes of UTF-8 (${LIMITS.multilingualMaxTextBytes} with the multilingual engine)`;

const engine = optional(
  z
    .string()
    .min(1)
    .describe(
      'Embedding engine id from list_models (e.g. "multilingual-e5-base"); may be omitted when the gateway has one engine, and must then be the same for texts you compare',
    ),
);

export const embedInput = toolArguments({
  texts: embeddingTexts('Texts to embed'),
  engine,
  input_type: optional(
    z
      .enum(['document', 'query'])
      .describe(
        'Multilingual engine only: "document" for texts to search in (default), "query" for search queries',
      ),
  ),
  dimensions: optional(
    z
      .number()
      .int()
      .positive()
      .describe(
        `Vector length, one the engine offers (multilingual: ${LIMITS.multilingualDimensions.join(', ')}; English: ${LIMITS.englishDimensions.join(', ')})`,
      ),
  ),
});

export const similarityInput = toolArguments({
  // No length bound: the limit is in bytes of UTF-8, core's check refuses a longer query (naming
  // its size and the limit), as it does a longer text.
  query: z
    .string()
    .min(1)
    .describe(
      `What to look for (a question, a phrase): at most ${LIMITS.embeddingsMaxTotalBytes} bytes of UTF-8 (${LIMITS.multilingualMaxTextBytes} with the multilingual engine)`,
    ),
  texts: embeddingTexts('Candidate texts to rank by their similarity to the query'),
  engine,
  top_k: optional(
    z.number().int().min(1).describe('Return only the best k texts (default: all, best first)'),
  ),
});

const CAPABILITIES = ['chat', 'streaming', 'tools', 'json_object', 'json_schema'] as const;

export const listModelsInput = toolArguments({
  capability: optional(z.enum(CAPABILITIES).describe('List only the models with this capability')),
});

/** Tool callers often send a nested object as its JSON text: read as the object it holds. */
function readJsonText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value; // refused by the schema, as a string
  }
}

export const askModelInput = toolArguments({
  model: z
    .string()
    .min(1)
    .describe('Gateway chat model id from list_models, e.g. "community/general"'),
  prompt: z.string().min(1).describe('The question or task for that model'),
  system: optional(z.string().min(1).describe('Instructions for the model (a system message)')),
  json: optional(
    z
      .boolean()
      .describe(
        'true asks for a JSON object as the answer (the model needs json_object); output_schema asks for one that follows a schema, on more models',
      ),
  ),
  max_tokens: optional(z.number().int().positive().describe('Longest answer, in tokens')),
  temperature: optional(z.number().min(0).max(2).describe('Sampling temperature, 0 to 2')),
  output_schema: optional(
    z
      .preprocess(
        readJsonText,
        z.record(z.string(), z.unknown(), 'a JSON Schema: an object (or its JSON text)'),
      )
      .describe(
        'A JSON Schema the answer must follow, e.g. {"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}. Every model serves it its own way (json_schema, a forced tool call or json_object, as its capabilities allow), every answer is checked against it, and one that fails moves the call to the next of fallback_models. The result then holds the answer as `output`',
      ),
  ),
  // Core's rule decides the name (docs/gateway-protocol.md §4.8): one outside what model servers
  // take is sent mapped ("Movie review" as Movie_review), so no pattern of our own here.
  output_schema_name: optional(
    z
      .string()
      .describe(
        'The name the model sees the output_schema by, e.g. "city_facts" (sent as 1 to 64 letters, digits, _ or -: "Movie review" as Movie_review); default: the schema\'s title, else "response"',
      ),
  ),
  // Core's rule, checked by core's one reader in the call (distinct non-empty ids, not `model`;
  // `[]`: none); no limit of our own.
  fallback_models: optional(
    z
      .array(z.string())
      .describe(
        'Models to use, in order, when `model` cannot answer (busy, offline, stalled, or lacking what the request needs), e.g. ["community/tools"]; each is checked against list_models first',
      ),
  ),
});

export type AskModelArgs = z.infer<typeof askModelInput>;
/** The media tools' arguments (their keys depend on the transport: no `*_path` over HTTP). */
export type MediaArgs = Record<string, unknown>;
