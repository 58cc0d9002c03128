// docs/gateway-protocol.md §3.1, §3.2 (`list_models`), §4.7 (the route), §6 to §9 (the services'
// results), §10 (the error envelope): what each tool returns.
import { z } from 'zod/v4';

/**
 * The tools' output schemas: what each tool's `structuredContent` holds, published as the tool's
 * `outputSchema` so that clients can validate results and plan from them (the MCP SDK's client
 * validates every result against it).
 *
 * A tool's structured content is either its result or, on a failed call (`isError: true`), the
 * `{ error }` envelope of tool-errors.ts. Clients that validate error results too (the MCP SDK's
 * 1.x `Client.callTool` does) must accept both, so each schema lists the result's fields and
 * `error`, all optional, and says in JSON Schema's `anyOf` that the result's required fields, or
 * `error`, are present.
 *
 * The gateway's answers are not trusted to fit: every result goes through conform-output.ts
 * (`registerGatewayTool`), which reads these schemas, so a field added here is checked there too.
 */

/** One model of a route (core's `ChatRouteHop`). */
const hop = z.object({
  model: z.string(),
  outcome: z.string().describe('skipped, deferred, failed, answered, lost (a hedge) or ended'),
  reason: z.string().optional().describe('Why it was skipped, deferred or left'),
  code: z.string().optional().describe('ended: the error code that ended the call'),
  structured: z
    .object({
      method: z.string().describe('How it served output_schema: json_schema, tools or json_object'),
      checked: z.boolean().describe('Whether its answer passed the check against the schema'),
    })
    .optional()
    .describe('With output_schema: how this model served it, and whether its answer passed'),
});

const hops = z.array(hop).describe('Each model skipped, tried and left, and the one that answered');

/** The models a call with `fallback_models` or `output_schema` went through (core's `ChatRoute`). */
const route = z
  .object({
    requested: z.array(z.string()).describe('The model, then fallback_models'),
    hops,
    answeredBy: z.string().describe('The model that served the answer'),
  })
  .describe('With fallback_models or output_schema: how the call was routed');

/** The route of a call that failed (core's `FailedChatRoute`: no model answered). */
const failedRoute = z
  .object({ requested: z.array(z.string()), hops })
  .describe('With fallback_models or output_schema: every model and why it did not answer');

/** The `error` of a failed call's structured content (tool-errors.ts writes it). */
const toolError = z.object({
  code: z
    .string()
    .describe("A GatewayError code, or this server's file_refused / url_refused / internal_error"),
  message: z.string(),
  what_to_do: z.string().optional().describe('What the caller can do about it'),
  status: z.number().int().optional().describe('HTTP status of the gateway answer'),
  field: z.string().optional().describe('The argument that was refused'),
  model: z.string().optional(),
  missing: z.array(z.string()).optional().describe('Capabilities the model lacks'),
  alternatives: z.array(z.string()).optional().describe('Models or ids that would do'),
  retry_after_ms: z.number().optional().describe('How long the gateway asks to wait'),
  host: z.string().optional().describe('url_refused: the host that may not be downloaded from'),
  text: z
    .string()
    .optional()
    .describe('invalid_structured_output of json: true: the answer as the model gave it'),
  skipped: z
    .array(z.object({ model: z.string(), reason: z.string(), detail: z.string() }))
    .optional()
    .describe('no_model_can_serve: every listed model and why it was left out'),
  stall: z
    .object({ phase: z.string(), waitedMs: z.number(), limitMs: z.number() })
    .optional()
    .describe('A stall timeout: which phase stalled, how long it waited, the limit'),
  route: failedRoute.optional(),
  issues: z
    .array(z.object({ message: z.string(), path: z.string().optional() }))
    .optional()
    .describe(
      'invalid_structured_output: how the answer broke output_schema (path: a JSON pointer)',
    ),
  reason: z
    .string()
    .optional()
    .describe(
      'invalid_structured_output: why the answer failed: refused (the model declined to answer), cut (at max_tokens, before its JSON ended), no_json (no JSON where it was asked for), schema (JSON that breaks the schema)',
    ),
});

/**
 * An output schema: the result's `required` fields and `optional` ones, or `error`. Every field is
 * optional to zod (the SDK's server checks successful results with it); the JSON Schema's `anyOf`
 * states which must be present.
 */
function toolOutput<
  Required extends z.ZodRawShape,
  Optional extends z.ZodRawShape = Record<never, never>,
>(required: Required, optional?: Optional) {
  return z
    .object({ ...required, ...(optional as Optional) })
    .partial()
    .extend({ error: toolError.optional().describe('Only on a failed call (isError: true)') })
    .meta({ anyOf: [{ required: Object.keys(required) }, { required: ['error'] }] });
}

const text = (description: string) => z.string().describe(description);
/** A count of the catalog (nodes, capacity, requests running): a whole number, never negative. */
const count = (description: string) => z.number().int().min(0).describe(description);

export const translateOutput = toolOutput(
  {
    text: text('The translated text'),
    target_language: text('The language translated into'),
  },
  { source_language: text('The language of the text: the one given, or the detected one') },
);

export const ocrOutput = toolOutput(
  { text: text('The text read from the image') },
  {
    confidence: z.number().min(0).max(1).describe('How sure the engine is, 0 to 1'),
    language: text('The language detected'),
  },
);

export const transcribeOutput = toolOutput(
  { text: text('The transcript (in English with translate: true)') },
  {
    language: text('The spoken language, given or detected'),
    duration_seconds: z.number().min(0).describe('Length of the audio'),
    translated_to: z.literal('en').describe('Present when the speech was translated'),
  },
);

export const embedOutput = toolOutput({
  engine: text('The embedding engine used'),
  dimensions: z.number().int().min(0).describe('Length of every vector'),
  vectors: z.array(z.array(z.number())).describe('One vector per text, in input order'),
});

export const similarityOutput = toolOutput({
  engine: text('The embedding engine used'),
  ranking: z
    .array(
      z.object({
        index: z.number().int().min(0).describe('Position of the text in the input'),
        score: z.number().describe('Cosine similarity to the query, -1 to 1'),
        text: text('The text (cut to 200 characters)'),
      }),
    )
    .describe('The texts, best first'),
});

/** A chat model as `list_models` shows it (model-tools.ts `readCatalog`). */
const listedModel = z.object({
  id: text('The id to pass as model to ask_model'),
  capabilities: z
    .array(z.string())
    .optional()
    .describe(
      'chat, streaming, tools, json_object, json_schema; left out when the gateway does not say (unknown: ask_model still sends to it)',
    ),
  owned_by: z.string().optional(),
  name: z.string().optional(),
  available_nodes: count('Nodes serving the model now').optional(),
  capacity: count('Requests the model takes at once').optional(),
  inflight: count('Requests running on the model now').optional(),
});

/** A service as `list_models` shows it (model-tools.ts `readCatalog`). */
const listedService = z.object({
  id: text('translation, ocr, speech_to_text or embeddings'),
  available: z.boolean().describe('Whether its tools can be called now'),
  available_nodes: count('Nodes serving the service now').optional(),
  name: z.string().optional(),
  engines: z
    .array(
      z.object({
        id: text('An engine id to pass as engine to embed or similarity'),
        name: z.string().optional(),
        dimensions: z
          .array(z.number().int().min(1))
          .optional()
          .describe('Vector lengths the engine gives, the default first'),
      }),
    )
    .optional(),
});

export const listModelsOutput = toolOutput(
  {
    models: z.array(listedModel).describe('The chat models this key may use'),
    services: z
      .array(listedService)
      .describe('The services and their availability (empty when services_unavailable is set)'),
  },
  {
    services_unavailable: text(
      'Set when the services could not be read now: why (the models are listed all the same)',
    ),
  },
);

export const askModelOutput = toolOutput(
  {
    text: text("The model's answer"),
    model: text('The model that answered'),
  },
  {
    finish_reason: text('stop, length, …; left out when the model server gave none'),
    requested_model: text('The model asked for, when another one answered'),
    output: z
      .unknown()
      .describe(
        'With output_schema: the answer as JSON, checked against output_schema (text holds it as JSON text)',
      ),
    route,
  },
);
