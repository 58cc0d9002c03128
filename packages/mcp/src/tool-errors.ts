// docs/gateway-protocol.md §10.2 (gateway codes), §10.4 (client codes), §10.5 (`Retry-After`): what
// to do about each, as a tool result.
import { type FailoverReason, GatewayError, isGatewayError } from '@infergate/core';
import { clip, isWorthNewCall } from '@infergate/core/internal';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { FileAccessError } from './allowed-roots';
import { redactMessage } from './redact-message';
import { UrlRefusedError } from './url-guard';

/**
 * A tool's own name for the parameter of core a validation error names (core names what it was
 * given: `model`, `input`, `image`, …), or undefined when the tool calls it the same. Without it a
 * model is told to fix an argument the tool does not take, and loops on the refusal.
 */
export type ToolArgumentOf = (field: string, error: GatewayError) => string | undefined;

/** `embed`'s and `similarity`'s names: the engine is `engine`; one text is the list's first. */
export function embeddingArgument(field: string, oneText = 'texts[0]'): string | undefined {
  if (field === 'model') return 'engine';
  if (field === 'inputType') return 'input_type';
  return field === 'text' ? oneText : undefined;
}

/** Core's fields of the schema ask_model sends: the arguments they come from. */
const SCHEMA_ARGUMENTS: Readonly<Record<string, string>> = {
  'response_format.json_schema.schema': 'output_schema',
  'response_format.json_schema.name': 'output_schema_name',
};

/**
 * `ask_model`'s names: core's `fallbackModels[i]` option is the `fallback_models[i]` argument,
 * its `response_format.json_schema.schema` the `output_schema` argument.
 */
export function askModelArgument(field: string): string | undefined {
  const item = /^fallbackModels(\[\d+\])?$/.exec(field);
  return item ? `fallback_models${item[1] ?? ''}` : SCHEMA_ARGUMENTS[field];
}

/** `ocr`'s and `transcribe`'s names: core's `image` / `audio` is the one `<kind>_*` given. */
export function mediaArgument(kind: 'image' | 'audio', args: Record<string, unknown>) {
  return (field: string): string | undefined =>
    field === kind
      ? [`${kind}_base64`, `${kind}_path`, `${kind}_url`].find((key) => args[key] !== undefined)
      : undefined;
}

/** Core's options a tool's calls take from the server's setup, never from the tool's arguments. */
const SERVER_SETUP_FIELD = /^(?:hedge(?:\.\w+)?|firstChunkTimeoutMs|chunkTimeoutMs|timeoutMs)$/;

/**
 * Core's refusal of a call's options that the server set (a hedge its client's deadline leaves
 * unsent, say: core checks a `client` given only at its calls) as what it is: the server's
 * `configuration_error`, not an argument the model should fix. Any other failure as it is.
 */
function asServerSetup(error: unknown): unknown {
  if (!isGatewayError(error) || error.code !== 'invalid_request_error') return error;
  if (error.field === undefined || !SERVER_SETUP_FIELD.test(error.field)) return error;
  // (Core words a call's values as "the call's": here, they are the server's.)
  const message = error.message
    .replace(' (call option) ', ' (server option) ')
    .replaceAll(", the call's)", ", the server's)");
  return new GatewayError({ code: 'configuration_error', message, field: error.field });
}

/** A validation error's field and message in the tool's words (`argumentOf`). */
function inToolWords(
  error: GatewayError,
  argumentOf: ToolArgumentOf | undefined,
): { field: string | undefined; message: string } {
  const { field, message } = error;
  const argument = field === undefined ? undefined : argumentOf?.(field, error);
  if (field === undefined || argument === undefined) return { field, message };
  // Core's own refusals start with the field (`model: is required …`), an option's with the field
  // and its place (`fallbackModels[1] (call option) repeats …`); a gateway's may not.
  const optionPrefix = `${field} (call option) `;
  let renamed = message;
  if (message.startsWith(`${field}:`)) renamed = `${argument}${message.slice(field.length)}`;
  else if (message.startsWith(optionPrefix)) {
    renamed = `${argument}: ${message.slice(optionPrefix.length)}`;
  } else {
    // A gateway's refusal core named the text in (`` `text` is 2000 bytes… ``).
    renamed = message.replaceAll(`\`${field}\``, `\`${argument}\``);
  }
  // Another item of the same list named in the message (`repeats fallbackModels[0]`) too.
  const list = /^(.+)\[\d+\]$/;
  const [fieldList, argumentList] = [list.exec(field)?.[1], list.exec(argument)?.[1]];
  if (fieldList !== undefined && argumentList !== undefined && fieldList !== argumentList) {
    renamed = renamed.replaceAll(`${fieldList}[`, `${argumentList}[`);
  }
  return { field: argument, message: renamed };
}

/** What a model (or the person behind it) can do about each gateway error code. */
function whatToDo(error: GatewayError, field: string | undefined): string {
  const alternatives = error.alternatives?.length
    ? error.alternatives.slice(0, 10).join(', ')
    : undefined;
  const wait =
    error.retryAfterMs !== undefined
      ? `wait ${Math.ceil(error.retryAfterMs / 1000)} s, then try again`
      : 'try again in a little while';
  switch (error.code) {
    case 'invalid_request_error':
      return field
        ? `Fix the argument "${field}" as the message says and call the tool again.`
        : 'Fix the arguments as the message says and call the tool again.';
    case 'unsupported_model_capability':
      return alternatives
        ? `Use a model that has what is needed: ${alternatives}.`
        : 'Call list_models and choose a model with the needed capability.';
    case 'model_not_found':
      return alternatives
        ? `Did you mean ${alternatives}? Call list_models for the exact ids.`
        : 'Call list_models for the exact model ids.';
    case 'model_not_allowed':
    case 'unshielded_access_required':
      return 'This gateway key may not use that model: choose another one from list_models.';
    case 'provider_unavailable':
      // (A model's call: another model may serve it; a catalog or service read: only time helps.)
      return error.requestedModel !== undefined || error.model !== undefined
        ? 'No node serves this right now: try another model, or try again later.'
        : `No node serves this right now: ${wait}.`;
    case 'model_busy':
    case 'client_concurrency_exceeded':
      return `The gateway is busy: ${wait}.`;
    case 'all_providers_failed':
    case 'provider_request_failed':
    case 'provider_protocol_error':
    case 'upstream_error':
    case 'stream_incomplete':
    case 'invalid_response':
    case 'network_error':
      // Worded by core's `isWorthNewCall` (a NEW call, which is what the model would make), not
      // `isRetryable` (core resending this attempt, never once a 2xx answer began): a cut or
      // garbled 200 is worth another call; an engine's own final 4xx comes the same again, and a
      // model told to retry would loop on it.
      if (isWorthNewCall(error)) return `The gateway or its model server failed: ${wait}.`;
      return error.status !== undefined && error.status >= 400 && error.status < 500
        ? 'The model server rejected this input (the message says why): change it, or stop; sent again unchanged, it fails again.'
        : 'The gateway or its model server failed in a way retrying does not fix: stop, or tell the person who runs this server.';
    case 'request_timeout':
    case 'timeout':
      // A stall is the model server going quiet (slow to start, or stopped mid-answer), not the
      // input's size: a smaller input would not help, another call or another model may.
      if (error.stall !== undefined) return stallTodo(error, error.stall.phase);
      return 'The call took too long: try a smaller input, or try again later.';
    case 'response_too_large':
      return 'The answer was too large: ask for less (fewer texts, a shorter answer).';
    case 'invalid_structured_output':
      if (error.invalidOutput?.reason === 'refused')
        return refusedTodo(error, 'changing output_schema');
      if (error.invalidOutput?.reason === 'cut') return CUT_TODO;
      return `The answer did not follow output_schema (issues says where): ${namedList(error) ? 'name other models in fallback_models' : 'add fallback_models'}, choose a model with json_schema from list_models, simplify the schema, or say more about it in the prompt.`;
    case 'no_model_can_serve':
      return alternatives
        ? `None of the models named can serve this request (the message says why for each): name others from list_models, such as ${alternatives}.`
        : 'None of the models named can serve this request (the message says why for each): call list_models and name others.';
    case 'aborted':
      return 'The call was cancelled.';
    case 'configuration_error':
      if (error.field !== undefined) {
        return `This MCP server's own setup is wrong (its option ${error.field}, not an argument of the tool): tell the person who runs it; retrying will not help.`;
      }
      return "The MCP server's own gateway settings are wrong (INFERGATE_BASE_URL / INFERGATE_API_KEY): tell the person who runs it; retrying will not help.";
    case 'invalid_api_key':
      return "The MCP server's own gateway settings are wrong (INFERGATE_BASE_URL / INFERGATE_API_KEY): tell the person who runs it; retrying will not help.";
    default:
      return 'Try again later, or tell the person who runs this server.';
  }
}

/**
 * Whether the call already named `fallback_models` (its route asked for more than one model):
 * then "add fallback_models" would tell the model to do what it did. A call core does not steer
 * has no route; one with a list always has (core's rule: every error of a steered call).
 */
function namedList(error: GatewayError): boolean {
  return (error.route?.requested.length ?? 0) > 1;
}

/**
 * What to do about a stall: the model server went quiet, not the input's size. A call with a list
 * moves on at a first-content stall only; a stall once content has passed ends it (core's rule for
 * a stream: final once content reached the caller), so its listed models were not tried after it.
 */
function stallTodo(error: GatewayError, phase: 'first-chunk' | 'between-chunks'): string {
  if (tooManyTried(error, 'first_chunk_stall')) {
    return 'Every model tried was too slow (none answered): try again later, or name other models from list_models.';
  }
  if (phase === 'first-chunk') {
    return namedList(error)
      ? 'The model was too slow to start answering, and the other models named failed or were skipped (route says why for each): try again, or name other models from list_models in fallback_models.'
      : 'The model was too slow to start answering: try again, or add fallback_models (another model).';
  }
  return namedList(error)
    ? 'The model stopped sending its answer part way; once an answer has begun, the call does not move on to fallback_models: try again, or name another model first.'
    : 'The model stopped sending its answer part way: try again, or add fallback_models (another model).';
}

/**
 * A failed tool call as a result the model can act on (`isError: true`): the gateway error's code,
 * its message and what to do, plus the same as structured content. Every message goes through
 * `redactMessage` (the live clients' API keys, URL credentials): core has already redacted the key
 * from a `GatewayError`, but any other error's message is whatever its thrower wrote — a shared
 * budget quoting its Redis URL, a `fetch` quoting its proxy's. `argumentOf` names a validation
 * error's field as the tool's argument.
 */
export function toolErrorResult(failure: unknown, argumentOf?: ToolArgumentOf): CallToolResult {
  const error = asServerSetup(failure);
  if (isGatewayError(error)) {
    const words = inToolWords(error, argumentOf);
    const todo = whatToDo(error, words.field);
    const message = redactMessage(words.message);
    const details: Record<string, unknown> = { code: error.code, message };
    if (error.status !== undefined) details.status = error.status;
    if (words.field !== undefined) details.field = words.field;
    if (error.model !== undefined) details.model = error.model;
    if (error.missing !== undefined) details.missing = error.missing;
    if (error.alternatives !== undefined) details.alternatives = error.alternatives;
    if (error.retryAfterMs !== undefined) details.retry_after_ms = error.retryAfterMs;
    if (error.skipped !== undefined) details.skipped = error.skipped;
    if (error.stall !== undefined) details.stall = error.stall;
    if (error.route !== undefined) details.route = error.route;
    if (error.invalidOutput !== undefined) details.issues = error.invalidOutput.issues;
    if (error.invalidOutput?.reason !== undefined) details.reason = error.invalidOutput.reason;
    details.what_to_do = todo;
    return {
      isError: true,
      content: [{ type: 'text', text: `Gateway error ${error.code}: ${message}\n${todo}` }],
      structuredContent: { error: details },
    };
  }
  if (error instanceof UrlRefusedError) {
    const message = redactMessage(error.message);
    const todo =
      error.whatToDo ??
      'Use a public URL (on the internet, not an internal host), or send the file as base64.';
    return ownErrorResult(`Cannot download the URL: ${message}`, {
      code: 'url_refused',
      message,
      host: redactMessage(error.host),
      what_to_do: todo,
    });
  }
  if (error instanceof FileAccessError) {
    const message = redactMessage(error.message);
    const todo =
      error.whatToDo ?? 'Fix the file argument as the message says, or send the file as base64.';
    return ownErrorResult(`Cannot use the file: ${message}`, {
      code: 'file_refused',
      message,
      what_to_do: todo,
    });
  }
  const message = redactMessage(error instanceof Error ? error.message : String(error));
  return ownErrorResult(`The tool failed: ${message}`, {
    code: 'internal_error',
    message,
    what_to_do: INTERNAL_ERROR_TODO,
  });
}

/** Characters of a refused answer's text `jsonAnswerRefused` passes on (core keeps as many). */
const REFUSED_TEXT_CHARS = 2000;

/**
 * `ask_model` with `json: true` refused by core: an answer that is not a JSON object is
 * `invalid_structured_output` (core's check of the schema `{type: 'object'}`, its route naming
 * every model tried), worded for `json: true` (there is no output_schema to fix), with the
 * answer's text once, cut at `REFUSED_TEXT_CHARS`. Any other error is `toolErrorResult`'s.
 */
export function jsonAnswerRefused(error: GatewayError): CallToolResult {
  const result = toolErrorResult(error, askModelArgument);
  if (error.code === 'no_model_can_serve') return noJsonObjectModel(error, result);
  if (error.code !== 'invalid_structured_output' || error.invalidOutput === undefined) {
    return result;
  }
  const details = (result.structuredContent as { error: Record<string, unknown> }).error;
  const todo = jsonObjectTodo(error);
  const full = redactMessage(error.invalidOutput.text);
  // Core's `clip` cuts at a code point (never half an emoji: strict JSON readers refuse it);
  // what is left out is counted in characters (code points), as a person counts them.
  const kept = clip(full, REFUSED_TEXT_CHARS);
  const text =
    kept === full ? full : `${kept} (${[...full.slice(kept.length - 1)].length} more characters)`;
  details.what_to_do = todo;
  details.text = text;
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text: `Gateway error invalid_structured_output: ${details.message}\n${todo}`,
      },
      { type: 'text', text: `The answer as given:\n${text}` },
    ],
    structuredContent: { error: details },
  };
}

/** What to do about `json: true`'s answer refused by core's check, by why it failed. */
function jsonObjectTodo(error: GatewayError): string {
  const reason = error.invalidOutput?.reason;
  if (reason === 'refused') return refusedTodo(error, 'passing output_schema');
  if (reason === 'cut') return CUT_TODO;
  return tooManyTried(error, 'invalid_structured_output')
    ? 'Every model tried answered something other than a JSON object: call again, or name other models from list_models (with json_object), or pass output_schema to say what the object holds.'
    : `Call again (the model may answer with an object next time), ${namedList(error) ? 'name other models with json_object from list_models in fallback_models' : 'add fallback_models (models with json_object)'}, or pass output_schema to say what the object holds.`;
}

/** Core's words (chat-capabilities) for a model that lacks a way to serve the schema. */
const NO_SCHEMA_WAY = /cannot serve a JSON schema|serves a JSON schema only by/;

/**
 * `json: true` refused before sending (`no_model_can_serve`) because no model named has
 * `json_object`: in the tool's words (core's name `structuredOutput.methods`, and json_schema or
 * tools, which `json: true` never uses, left out), `missing: ['json_object']`, the alternatives
 * kept. A refusal for another reason (a model not in the catalog) is core's as it is.
 */
function noJsonObjectModel(error: GatewayError, result: CallToolResult): CallToolResult {
  const skipped = error.skipped ?? [];
  const lacking = skipped.filter((entry) => NO_SCHEMA_WAY.test(entry.detail));
  if (lacking.length === 0) return result;
  const details = (result.structuredContent as { error: Record<string, unknown> }).error;
  const why = (model: string) => `Model "${model}" does not list json_object`;
  const reasons = skipped.map((entry) =>
    lacking.includes(entry) ? why(entry.model) : entry.detail,
  );
  const alternatives = error.alternatives ?? [];
  const others = alternatives.length > 10 ? ` and ${alternatives.length - 10} more` : '';
  const could = alternatives.length
    ? ` Models with json_object: ${alternatives.slice(0, 10).join(', ')}${others}.`
    : '';
  const message = redactMessage(
    `json: true needs a model with json_object: ${reasons.join('; ')}.${could}`,
  );
  const todo = alternatives.length
    ? `Name a model with json_object from list_models, such as ${alternatives.slice(0, 10).join(', ')}; or pass output_schema instead (more models serve it).`
    : 'Call list_models and name a model with json_object; or pass output_schema instead (more models serve it).';
  details.message = message;
  details.missing = ['json_object'];
  details.skipped = skipped.map((entry, i) => ({ ...entry, detail: reasons[i] }));
  details.what_to_do = todo;
  return {
    isError: true,
    content: [{ type: 'text', text: `Gateway error no_model_can_serve: ${message}\n${todo}` }],
    structuredContent: { error: details },
  };
}

/** What to do about a structured answer cut at the length limit. */
const CUT_TODO = 'Raise max_tokens (the answer was cut before its JSON ended) and call again.';

/**
 * What to do about a structured answer the model refused to give (core's `invalidOutput.reason`
 * `refused`: OpenAI's `refusal`, quoted in `issues`): the model declined the request itself, so
 * reword it or ask another model (when more than one was tried and failed alike, other models than
 * those); `schemaChange` (what the tool's schema argument could do) would not help, and the advice
 * says so.
 */
function refusedTodo(error: GatewayError, schemaChange: string): string {
  // Every model tried failed its check, the last refusing: another of them would not help.
  if (tooManyTried(error, 'invalid_structured_output')) {
    return `Every model tried refused or failed its check, the last refusing to answer (issues quotes its words): reword the prompt, or name other models from list_models; ${schemaChange} will not help.`;
  }
  const another = namedList(error)
    ? 'a model from list_models not named yet'
    : 'fallback_models, or a model from list_models';
  return `The model refused to answer (issues quotes its words): reword the prompt, or ask another model (${another}); ${schemaChange} will not help.`;
}

/**
 * Whether more than one model was sent the call and failed it the way the call ended (`reason`:
 * the route's failover reason for that failure): its hops, not the models named — a model left
 * out before sending (skipped, never tried) did not fail it, and "every model named" would be
 * false with one model asked.
 */
function tooManyTried(error: GatewayError, reason: FailoverReason): boolean {
  const failedAlike = new Set(
    (error.route?.hops ?? [])
      .filter(
        (hop) =>
          (hop.outcome === 'failed' && hop.reason === reason) ||
          (hop.outcome === 'ended' && hop.code === error.code),
      )
      .map((hop) => hop.model),
  );
  return failedAlike.size > 1;
}

/** An error this server finds on its own (not core's): the model can only stop or report it. */
const INTERNAL_ERROR_TODO =
  'This server failed in a way the arguments did not cause: try once more, and if it fails again stop and tell the person who runs this server.';

/** One of this server's own error results: its text (with `what_to_do` on the next line), and `error`. */
function ownErrorResult(
  text: string,
  error: { code: string; message: string; what_to_do: string; [key: string]: unknown },
): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `${text}\n${error.what_to_do}` }],
    structuredContent: { error },
  };
}
