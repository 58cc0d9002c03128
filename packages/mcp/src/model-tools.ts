// docs/gateway-protocol.md §3.1, §3.2 (`list_models`), §4.2 (`ask_model` refuses before sending),
// §4.6 (the answering model), §4.7 (`fallback_models`).
import type {
  AssembledToolCall,
  ChatCallOptions,
  ChatMessage,
  ChatRequest,
  ChatRoute,
  ChatRouteHop,
  GatewayClient,
  ServiceId,
  SteeringOptions,
} from '@infergate/core';
import { isGatewayError } from '@infergate/core';
import {
  capabilitiesOf,
  classifyFinishReason,
  clip,
  escapeControl,
  isServiceOffered,
  listedCapabilities,
  planChatCall,
  quotedName,
  steersCall,
  streamsOptionally,
} from '@infergate/core/internal';
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { conformTo } from './conform-output';
import type { ToolProgress } from './progress';
import { redactMessage } from './redact-message';
import { registerGatewayTool, runTool, type ToolContext, toolResult } from './tool-context';
import { askModelArgument, jsonAnswerRefused } from './tool-errors';
import { askModelOutput, listModelsOutput } from './tool-output-schemas';
import { type AskModelArgs, askModelInput, listModelsInput } from './tool-schemas';

/**
 * The catalog this key may use: its chat models and the services with their availability, as
 * `list_models` and the `infergate://` resources show them. The entries are the gateway's as
 * sent, read through `list_models`' output schema (conform-output.ts): what cannot be read is
 * left out, an engine whose id is not a string with it (it could not be named to `embed`).
 *
 * Read fresh, past core's cache. The two lists are read apart: one that fails (its error thrown by `models()` / `services()`)
 * leaves the other as read, so a 503 on `GET /capabilities` alone costs the services, not the
 * models (and the other way round).
 */
export async function readCatalog(client: GatewayClient, signal?: AbortSignal) {
  // Read past core's cache (up to `catalogTtlMs` old): both say what is available now, and a
  // gateway gone since the last read is an error here, not an old list.
  client.refreshCatalog();
  const [models, services] = await Promise.allSettled([
    client.models({ signal }),
    client.services({ signal }),
  ]);
  const listed = services.status === 'fulfilled' ? services.value : [];
  const catalog = conformTo(listModelsOutput, {
    models: models.status === 'fulfilled' ? models.value : [],
    services: listed.map((service) => ({
      ...service,
      available: isServiceOffered(listed, service.id as ServiceId),
    })),
  });
  return {
    models: () => (models.status === 'fulfilled' ? (catalog?.models ?? []) : thrown(models)),
    services: () =>
      services.status === 'fulfilled' ? (catalog?.services ?? []) : thrown(services),
    /** Why the services could not be read (their list is then empty), if they could not. */
    servicesError: services.status === 'rejected' ? services.reason : undefined,
  };
}

function thrown(failed: PromiseRejectedResult): never {
  throw failed.reason;
}

function chatRequest(args: AskModelArgs): ChatRequest {
  const messages: ChatMessage[] = [];
  if (args.system !== undefined) messages.push({ role: 'system', content: args.system });
  messages.push({ role: 'user', content: args.prompt });
  const request: ChatRequest = { model: args.model, messages };
  if (args.output_schema !== undefined) request.response_format = schemaFormat(args);
  else if (args.json === true) request.response_format = JSON_OBJECT_FORMAT;
  if (args.max_tokens !== undefined) request.max_tokens = args.max_tokens;
  if (args.temperature !== undefined) request.temperature = args.temperature;
  return request;
}

/**
 * `output_schema` as core's structured-output request: core serves it on each model its own way
 * and checks every answer. Named by `output_schema_name`, else the schema's title, else
 * `response` (as core and `@ai-sdk/openai-compatible` name one); core sends a name outside what
 * model servers take mapped to one ("Movie review" as `Movie_review`), its rule alone.
 */
function schemaFormat(args: AskModelArgs): ChatRequest['response_format'] {
  const schema = args.output_schema!;
  // A blank title names nothing (core would refuse it as the name, which the caller did not give).
  const title =
    typeof schema.title === 'string' && schema.title.trim() !== '' ? schema.title : undefined;
  const name = args.output_schema_name ?? title ?? 'response';
  return { type: 'json_schema', json_schema: { name, schema } };
}

/**
 * `json: true` as core's structured output: any JSON object, served by `json_object` alone
 * (`JSON_OBJECT_ONLY`, so the wire still says `response_format: {type: 'json_object'}`). Core
 * then reads the answer as it reads every structured one (a leading think block as reasoning, a
 * code fence unwrapped), refuses one that is not an object (`invalid_structured_output`), and
 * moves on to `fallback_models` when one fails.
 */
const JSON_OBJECT_FORMAT: ChatRequest['response_format'] = {
  type: 'json_schema',
  json_schema: { name: 'response', schema: { type: 'object' } },
};

const JSON_OBJECT_ONLY: Pick<ChatCallOptions, 'structuredOutput'> = {
  structuredOutput: { methods: ['json_object'] },
};

/** `json: true` without `output_schema`: the answer is any JSON object. */
const jsonOnly = (args: AskModelArgs) => args.json === true && args.output_schema === undefined;

/** Characters of streamed answer between two progress notifications. */
const PROGRESS_EVERY_CHARS = 200;

/**
 * The steering `ask_model` passes to core (the server's options, read by core's one reader when
 * the server is made; off when not set).
 */
export type AskModelOptions = Omit<SteeringOptions, 'fallbackModels' | 'structuredOutput'>;

interface Answer {
  text: string;
  /** With `output_schema`: the value core checked against it. */
  structured?: { value: unknown };
  finishReason: string | null;
  /** The tool calls the model asked for (none are offered: they are named in a note, not run). */
  toolCalls: readonly AssembledToolCall[];
  servedModel: string;
  fallback: boolean;
  route: ChatRoute;
}

async function ask(
  client: GatewayClient,
  request: ChatRequest,
  streams: boolean,
  progress: ToolProgress,
  options: ChatCallOptions,
): Promise<Answer> {
  if (!streams) {
    const { answer, servedModel, fallback, route, structured } = await client.chat(
      request,
      options,
    );
    const { text, finishReason, toolCalls } = answer;
    return {
      text,
      finishReason,
      toolCalls,
      servedModel,
      fallback,
      route,
      ...(structured && { structured }),
    };
  }
  const stream = await client.chatStream(request, options);
  let received = 0;
  let reported = 0;
  for await (const event of stream) {
    if (event.type !== 'text-delta') continue;
    received += event.delta.length;
    if (received - reported >= PROGRESS_EVERY_CHARS) {
      reported = received;
      progress.step(`${received} characters of the answer received`);
    }
  }
  const result = await stream.result();
  return {
    text: result.text,
    ...(result.structured && { structured: result.structured }),
    finishReason: result.finishReason,
    toolCalls: result.toolCalls,
    servedModel: stream.servedModel,
    fallback: stream.fallback,
    route: stream.route,
  };
}

/**
 * Whether to stream, and core's options. Core gates the call (every model it may go to, checked
 * against the catalog before sending: unknown ids get close matches, missing capabilities the
 * models that would do). Streaming only feeds progress: it is asked for when someone watches and
 * core says the model streams (`planChatCall`: unknown is asked whole; over `fallback_models` a
 * streamed walk goes to the listed models that stream).
 */
async function plan(
  client: GatewayClient,
  args: AskModelArgs,
  progressWanted: boolean,
  base: ChatCallOptions,
): Promise<{ streams: boolean; options: ChatCallOptions }> {
  const options =
    args.fallback_models === undefined ? base : { ...base, fallbackModels: args.fallback_models };
  if (!progressWanted) return { streams: false, options };
  // (An id the catalog does not list is core's to refuse, in the call.)
  const model = await client.model(args.model, { signal: options.signal }).catch(() => undefined);
  const known = model === undefined ? undefined : capabilitiesOf(model);
  // Over a list, each listed model's capabilities from the cached catalog (core's plan reads them).
  const listed =
    options.fallbackModels === undefined
      ? undefined
      : await client.models({ signal: options.signal }).then(listedCapabilities, () => undefined);
  const streams = streamsOptionally(planChatCall(undefined, options, known, listed));
  return { streams, options };
}

/** Models passed over that the note after an answer names; the rest are counted. */
const NOTED_HOPS = 3;

/**
 * A hop the note names, with its outcome and why: the outcome beside the reason (`not_in_catalog`
 * is a reason to skip a model and to defer one); a hedge's loser (`lost`) and a run that ended at
 * a failure (`ended`, its code) too. The answering hop is the note's own subject.
 */
function passedOver(hop: ChatRouteHop): string[] {
  if ('reason' in hop) return [`${hop.model}: ${hop.outcome} (${hop.reason})`];
  if (hop.outcome === 'lost')
    return [`${hop.model}: lost (hedged: the other attempt answered first)`];
  if (hop.outcome === 'ended') return [`${hop.model}: ended (${hop.code})`];
  return [];
}

/**
 * `ask_model`'s result: the answer, and which model gave it. The route with it exactly when core
 * steered the call (`steered`: core's answer, `steersCall` — a list, a schema, the server's or the
 * client's stall timeouts or hedge): a hedge's loser is then in it; a call core did not steer has
 * one hop, its model, which the result names already.
 * With `output_schema` or `json` the text is the answer's JSON alone (what MCP asks of structured
 * content, and what a client parsing the text block needs), and a note of another model answering
 * comes as a second text block.
 */
function askResult(args: AskModelArgs, answer: Answer, steered: boolean): CallToolResult {
  const structured: Record<string, unknown> = {
    text: answer.text,
    model: answer.servedModel,
  };
  if (answer.finishReason !== null) structured.finish_reason = answer.finishReason;
  if (answer.fallback) structured.requested_model = args.model;
  if (answer.structured !== undefined && !jsonOnly(args)) {
    structured.output = answer.structured.value;
  }
  if (steered) structured.route = answer.route;
  const left = answer.route.hops.flatMap(passedOver);
  // A long list would bury the answer under the note: a few are named, the route has them all.
  const more =
    left.length > NOTED_HOPS
      ? ` and ${left.length - NOTED_HOPS} more (every one in the result's structured route)`
      : '';
  const why = left.length > 0 ? `; ${left.slice(0, NOTED_HOPS).join(', ')}${more}` : '';
  const notes = [
    answer.fallback ? `(answered by ${answer.servedModel} in place of ${args.model}${why})` : '',
    answer.fallback ? '' : unknownFallbacksNote(answer),
    cut(answer) ? CUT_NOTE : '',
    structuredCall(args) ? '' : noTextNote(answer),
  ].filter((note) => note !== '');
  if (args.output_schema === undefined && args.json !== true) {
    // An empty answer is its note alone.
    const parts = [answer.text, ...notes].filter((part) => part !== '');
    return toolResult(parts.join('\n\n'), structured);
  }
  const result = toolResult(answer.text, structured);
  for (const note of notes) result.content.push({ type: 'text', text: note });
  return result;
}

/**
 * The note naming `fallback_models` ids core skipped as not in the catalog, when the requested model
 * answered (a note of another model answering names them already): a misspelt id would otherwise
 * go unseen until the model it was meant to back up fails. Core's skip names no close matches.
 */
function unknownFallbacksNote(answer: Answer): string {
  const unknown = answer.route.hops
    .filter((hop) => hop.outcome === 'skipped' && hop.reason === 'not_in_catalog')
    .map((hop) => hop.model);
  if (unknown.length === 0) return '';
  const shown = unknown.slice(0, NOTED_HOPS).join(', ');
  const more = unknown.length > NOTED_HOPS ? ` and ${unknown.length - NOTED_HOPS} more` : '';
  const [verb, ids] = unknown.length === 1 ? ['is', 'id'] : ['are', 'ids'];
  return `(fallback_models: ${shown}${more} ${verb} not in the catalog and ${verb === 'is' ? 'was' : 'were'} skipped: check the ${ids} with list_models)`;
}

/**
 * The note after an answer the model server cut at `max_tokens` (`finish_reason` `length`, by
 * core's reading of the server's word): clients hand a model the text alone, and a cut answer
 * reads like a whole one.
 */
const CUT_NOTE = '(cut at max_tokens: the answer is incomplete; raise max_tokens to get all of it)';

const cut = (answer: Answer) => classifyFinishReason(answer.finishReason) === 'length';

/** With `output_schema` or `json` core reads the answer (its own tool call among them) and refuses an empty one. */
const structuredCall = (args: AskModelArgs) =>
  args.output_schema !== undefined || args.json === true;

/** Tool calls a note names; the rest are counted. */
const NOTED_CALLS = 3;
/** Characters of a tool call's arguments a note quotes. */
const NOTED_ARGUMENTS = 200;

/**
 * The note after an answer that is not all text: clients hand a model the text alone, and an
 * empty one reads like nothing went wrong. A model that asked for tools (none are offered to it,
 * and `ask_model` runs none) has each call named, its arguments cut; an empty answer withheld by
 * a content filter, or ended for another reason, says so (a cut one has the cut note).
 */
function noTextNote(answer: Answer): string {
  const reason = `finish_reason ${answer.finishReason ?? 'none'}`;
  const kind = classifyFinishReason(answer.finishReason);
  if (answer.toolCalls.length > 0) {
    const calls = answer.toolCalls.slice(0, NOTED_CALLS).map(notedCall);
    const more = answer.toolCalls.length - calls.length;
    const named = `${calls.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
    const gave = answer.text === '' ? `gave no text (${reason}): it asked` : 'also asked';
    return `(the model ${gave} to call ${named}; ask_model offers the model no tools and runs none: ask again for the answer in text, or ask another model)`;
  }
  if (answer.text !== '' || kind === 'length') return '';
  if (kind === 'content_filter') {
    return `(the model's answer was withheld by a content filter (${reason}): reword the prompt or ask another model)`;
  }
  return `(the model gave no text (${reason}))`;
}

/** A tool call the model asked for: its name and its arguments, cut, as a note quotes them. */
function notedCall(call: AssembledToolCall): string {
  return `tool ${quotedName(call.name, 60, undefined)} with ${escapeControl(clip(call.arguments, NOTED_ARGUMENTS))}`;
}

/**
 * `list_models`' note when `GET /capabilities` failed: the models are listed all the same, the
 * services are unknown for now (an empty list, not "none offered").
 */
function servicesUnavailable(error: unknown): { services_unavailable?: string } {
  if (error === undefined) return {};
  const why = redactMessage(error instanceof Error ? error.message : String(error));
  return {
    services_unavailable: `The services could not be read (${why}): call list_models again later to see them; the models above are current.`,
  };
}

/** `list_models` and `ask_model`: the catalog, and a prompt sent to a chosen gateway model. */
export function registerModelTools(
  server: McpServer,
  context: ToolContext,
  askOptions: AskModelOptions = {},
): Record<'list_models' | 'ask_model', RegisteredTool> {
  const { client } = context;

  const listModels = registerGatewayTool(
    server,
    'list_models',
    {
      title: 'List gateway models and services',
      description:
        'List the chat models this gateway key may use (id, owner, capabilities such as tools or json_schema, available nodes) and the services (translation, ocr, speech_to_text, embeddings with their engines) with whether they are available now. Use it to choose a model for ask_model or an engine for embed.',
      inputSchema: listModelsInput,
      outputSchema: listModelsOutput,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args, extra) =>
      runTool(context, extra, async () => {
        const catalog = await readCatalog(client, extra.signal);
        const listed = catalog.models();
        // (A model whose entry gives no capabilities is unknown: not listed as having one.)
        const models =
          args.capability === undefined
            ? listed
            : listed.filter((model) => model.capabilities?.includes(args.capability!) === true);
        const result = {
          models,
          services: catalog.servicesError === undefined ? catalog.services() : [],
          ...servicesUnavailable(catalog.servicesError),
        };
        return toolResult(JSON.stringify(result, null, 2), result);
      }),
  );

  const askModel = registerGatewayTool(
    server,
    'ask_model',
    {
      title: 'Ask another model',
      description:
        "Send a prompt to one of the gateway's chat models and get its answer: for a second opinion, a cheaper or specialised model, or a task you want done by another model. Choose the model with list_models. json: true asks for a JSON object (the model needs json_object). output_schema: a JSON Schema the answer must follow; each model serves it its own way (json_schema, a forced tool call or json_object), every answer is checked, and the result holds it as output (the text is its JSON). A model lacking what the request needs is refused before anything is sent, with models that would do. fallback_models: models to use in order when the model is busy, offline, stalls or lacks what is needed (each checked first; the result names the model that answered).",
      inputSchema: askModelInput,
      outputSchema: askModelOutput,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args, extra) =>
      runTool(
        context,
        extra,
        async (progress) => {
          const request = chatRequest(args);
          const base: ChatCallOptions = {
            signal: extra.signal,
            ...askOptions,
            ...(jsonOnly(args) && JSON_OBJECT_ONLY),
          };
          const { streams, options } = await plan(client, args, progress.wanted, base);
          const steered = steersCall(client, request, options);
          try {
            const answer = await ask(client, request, streams, progress, options);
            return askResult(args, answer, steered);
          } catch (error) {
            if (jsonOnly(args) && isGatewayError(error)) return jsonAnswerRefused(error);
            throw error;
          }
        },
        askModelArgument,
      ),
  );

  return { list_models: listModels, ask_model: askModel };
}
