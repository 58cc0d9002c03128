// docs/gateway-protocol.md §4.7 (a steered chat call), §4.8 (structured output per hop), §5.6 (its
// bodies ask for usage as the first).
/**
 * A chat call handed to the steering module, loaded with the steering module by the first call that steers
 * (chat-calls.ts), together with what reads a steered stream's first content and what checks a
 * structured answer: an app whose calls never steer loads none of it.
 */
import type { StructuredOutputOptions } from '../call/option-groups';
import { closestOption, kindOf } from '../call/option-groups';
import { invalidRequest, isGatewayError } from '../errors/errors';
import { quotedName } from '../errors/escape-control';
import type { AnsweringModel } from '../errors/response-headers';
import type { OpenVia, RequestSpec } from '../http/transport';
import type { WholeAnswer } from '../http/whole-answer';
import type {
  AssembledChat,
  StructuredResult,
  UncheckedStructured,
} from '../protocol/chat-result-types';
import type { ChatRoute } from '../protocol/chat-route';
import { choicesAsked } from '../protocol/several-choices';
import type { ChatRequest, ResponseFormat } from '../protocol/wire-types';
import { checkSchemaForm } from '../steering/check-schema-form';
import type { StructuredOutputCheck } from '../steering/check-structured-answer';
import {
  runSteeredCall,
  type SteeredAnswer,
  type SteeredCallInput,
  type StructuredServing,
} from '../steering/run-steered-call';
import { asksForStructuredOutput } from '../steering/steering-options';
import {
  type StructuredOutputSchema,
  schemaName,
  structuredRequest,
} from '../steering/structured-output-request';
import { chatBody, chatSpec } from './build-chat-request';
import { readToFirstContent } from './stream/first-content';
import type { StructuredStream } from './stream/sse-chat-stream';
import { checkStructuredStart } from './stream/structured-start';
import { checkJsonTextAnswer, checkWholeAnswer, type WholeChecked } from './structured-completion';
import { refuseStructuredChoices, structuredStream } from './structured-stream';

// The fence rule for a call asking for JSON with no schema (chat-calls.ts), loaded with this module.
export { jsonInText } from '../steering/json-in-text';
export { jsonTextHooks } from './structured-stream';

/** A call that steers, as chat-calls.ts found it. */
export interface SteeredChatInput
  extends Pick<SteeredCallInput, 'transport' | 'catalog' | 'client' | 'options' | 'needs'> {
  req: ChatRequest;
  stream: boolean;
  /** The call's `streamUsage`, else the client's. */
  streamUsage: boolean;
  options: SteeredCallInput['options'] & { structuredOutput?: StructuredOutputOptions };
  /** §4.6's answering model, to name it in a stream's failure (`AnsweringModel`). */
  answering: AnsweringModel;
}

/**
 * A steered call; a structured call's checked value (non-streamed: checked in its attempt), or a
 * structured stream's hooks (given the stream's route: its answered hop is marked once checked).
 */
export type SteeredChatAnswer<T> = SteeredAnswer<T> & {
  structured?: StructuredResult;
  structuredUnchecked?: UncheckedStructured;
  /**
   * Marks each later choice (`n` > 1, `ChatResult.choices`) with its checked value (`structured`)
   * or, handed on unchecked, how it was served (`structuredUnchecked`), and its finish as sent.
   */
  markChoices?: (choices: AssembledChat[]) => void;
  structuredStream?: (route: ChatRoute) => StructuredStream;
};

/**
 * Sends the call through the steering module: each model's request is the call's, naming that
 * model, rewritten for the method it serves a schema by when the call asks for one.
 */
export async function sendSteeredChat<T>(
  call: SteeredChatInput,
  sendVia: (spec: RequestSpec, via?: OpenVia) => Promise<T>,
): Promise<SteeredChatAnswer<T>> {
  const { req, stream, streamUsage } = call;
  const spec = chatSpec(req, stream, streamUsage);
  const given = schemaAskedIn(req, call.options.structuredOutput?.standard !== undefined);
  const input: SteeredCallInput = {
    ...call,
    spec,
    bodyFor: (model, method) => {
      if (given !== undefined && method !== undefined) {
        return chatBody(structuredRequest({ ...req, model }, given, method), stream, streamUsage);
      }
      return model === req.model
        ? (spec.body as string)
        : chatBody({ ...req, model }, stream, streamUsage);
    },
    firstContent: (answer, signal, model) =>
      readToFirstContent(answer, signal, model, call.answering, {
        maxErrorBodyBytes: call.transport.maxErrorBodyBytes,
        maxRetryAfterMs: call.transport.retryAllowance(call.options).maxRetryAfterMs,
        choices: choicesAsked(req.n),
      }),
  };
  if (given === undefined) {
    // JSON with no schema: a whole answer that is not JSON moves the walk on.
    if (!stream && req.response_format?.type === 'json_object') {
      input.checkJsonText = jsonTextCheck(call.transport.maxResponseBytes, spec.path);
    }
    return runSteeredCall(input, (via) => sendVia(spec, via));
  }
  if (stream) refuseStructuredChoices(req);
  const structured = serving(call, given, spec.path);
  input.structured = structured;
  const steered: SteeredChatAnswer<T> = await runSteeredCall(input, (via) => sendVia(spec, via));
  const { model, method } = steered;
  if (!stream) {
    const { headers } = steered.answer as WholeAnswer;
    steered.structured = structured.checkedOf(headers);
    const unchecked = structured.uncheckedOf(headers);
    steered.structuredUnchecked = unchecked?.unchecked;
    if (unchecked?.uncheckedChoices !== undefined || unchecked?.checkedChoices !== undefined) {
      steered.markChoices = (choices) => markChoices(choices, unchecked);
    }
  } else if (method !== undefined) {
    const check = checkOf(call, given);
    steered.structuredStream = (route) => {
      // The route's answered hop (its last) says `checked` once the end passed.
      const hop = route.hops.at(-1);
      const answered = hop?.outcome === 'answered' ? hop.structured : undefined;
      const { ownTools } = structured;
      // Its content reached the caller: a failed end check moves to no other model, it is the last.
      const returnRefused = returnsLastAnswer(call);
      return structuredStream({ model, method, given, check, ownTools, returnRefused }, answered);
    };
  }
  return steered;
}

/** A JSON call's whole answers checked in their attempts (`checkJsonTextAnswer`). */
function jsonTextCheck(
  maxResponseBytes: number,
  path: string,
): NonNullable<SteeredCallInput['checkJsonText']> {
  return (answer, model, ahead, signal) =>
    checkJsonTextAnswer(answer, model, {
      maxResponseBytes,
      path,
      signal,
      last: () => ahead.last(),
    });
}

/**
 * The schema a request asks for (`response_format` `json_schema`), its name and its form checked
 * now: before any request, a schema core's check cannot use is the caller's error, no model's
 * (not when a Standard Schema checks the answers: core's check of this one is not used).
 */
function schemaAskedIn(req: ChatRequest, standard: boolean): StructuredOutputSchema | undefined {
  if (!asksForStructuredOutput(req)) return undefined;
  const format = (req.response_format as Extract<ResponseFormat, { type: 'json_schema' }>)
    .json_schema;
  const given: StructuredOutputSchema = { schema: format.schema as Record<string, unknown> };
  given.name = schemaName({ ...given, name: format.name }, 'response_format.json_schema.name');
  if (!standard) checkSchemaForm(given.schema, 'response_format.json_schema.schema');
  refuseSchemaFields(format);
  // (`null` is not given, as OpenAI's own type allows it: nothing is sent.)
  if (format.description != null) given.description = format.description;
  if (format.strict != null) given.strict = format.strict;
  return given;
}

/** The keys `response_format.json_schema` may hold: the spec's, and OpenAI's two more. */
const JSON_SCHEMA_KEYS = ['name', 'schema', 'description', 'strict'];

/**
 * `json_schema`'s other keys and its `description` and `strict` of the wrong type, refused before
 * sending: each request is rebuilt per model from the keys read here, so a mistyped one
 * (`stirct`) would be dropped without a word. (`undefined` counts as not given, as it is not sent;
 * so does a `null` description or strict, which OpenAI's type allows.)
 */
function refuseSchemaFields(format: Record<string, unknown>): void {
  const at = 'response_format.json_schema';
  for (const key of Object.keys(format)) {
    if (JSON_SCHEMA_KEYS.includes(key) || format[key] === undefined) continue;
    const closest = closestOption(key, JSON_SCHEMA_KEYS);
    const hint = closest === undefined ? '' : ` — did you mean \`${closest}\`?`;
    const known = `(known: ${JSON_SCHEMA_KEYS.join(', ')})`;
    throw invalidRequest(
      `${at}.${key}`,
      `unknown field ${quotedName(key, 60, undefined)} ${known}${hint}`,
    );
  }
  for (const [key, type] of [
    ['description', 'string'],
    ['strict', 'boolean'],
  ] as const) {
    const value = format[key];
    if (value != null && typeof value !== type) {
      throw invalidRequest(`${at}.${key}`, `must be a ${type}, got ${kindOf(value)}`);
    }
  }
}

/**
 * How the walk serves the call's schema: each whole answer checked in its attempt (a stream's
 * start: read on until its map lets content through, its answer checked when none came), the value of
 * each that passed kept here for the call's result — by the answer's headers, the one object the
 * transport carries from the attempt to the answer it reads (a hedged call's two runs may both
 * pass: the winner's is the one asked for).
 */
function serving(
  call: SteeredChatInput,
  given: StructuredOutputSchema,
  path: string,
): StructuredServing & { uncheckedOf(headers: Headers): UncheckedFound | undefined } {
  const check = checkOf(call, given);
  const maxResponseBytes = call.transport.maxResponseBytes;
  const checked = new WeakMap<Headers, StructuredResult>();
  // A refused last answer handed on clean (`lastAnswer: 'returned'`): how it was served.
  const unchecked = new WeakMap<Headers, UncheckedFound>();
  return {
    ownTools: (call.req.tools ?? []).length > 0,
    checkedOf: (headers) => checked.get(headers),
    uncheckedOf: (headers) => unchecked.get(headers),
    async checkWhole(answer, model, method, ahead, signal, onContent) {
      // The last answer handed on unchecked when the call says so (`lastAnswer`): asked once the
      // answer is whole (a hedged call's other run may have ended meanwhile).
      const returns = returnsLastAnswer(call);
      const refusal = {
        get returnRefused() {
          return returns && ahead.last();
        },
      };
      if (call.stream) {
        const asks = { model, method, given, check, ownTools: this.ownTools };
        const hooks = structuredStream(Object.assign(refusal, asks));
        // While the walk could still move on, nothing reaches the caller before the check passed:
        // content let through would bind the call to an answer that may fail it (§4.8 item 5).
        const read = { signal, onContent, toEnd: ahead.movesOn() };
        const bound = call.transport.maxErrorBodyBytes;
        return checkStructuredStart(
          answer,
          hooks,
          maxResponseBytes,
          read,
          model,
          call.answering,
          bound,
        );
      }
      const asked = Object.assign(refusal, { given, check, maxResponseBytes, path, signal });
      const outcome = await checkWholeAnswer(answer, model, method, asked);
      if (outcome === undefined || isGatewayError(outcome)) return outcome;
      const { headers } = answer.response;
      if (outcome.checked !== undefined) checked.set(headers, outcome.checked);
      const { uncheckedChoices, checkedChoices } = outcome;
      if (outcome.unchecked !== undefined || uncheckedChoices || checkedChoices) {
        unchecked.set(headers, outcome);
      }
      return undefined;
    },
  };
}

/**
 * Each later choice found with its checked value (`structured`) or its unchecked mark
 * (`structuredUnchecked`), and its finish as sent.
 */
function markChoices(choices: AssembledChat[], found: UncheckedFound): void {
  for (const [place, mark] of found.uncheckedChoices ?? []) {
    const choice = choices[place];
    if (choice === undefined) continue;
    choice.structuredUnchecked = mark;
    if (mark.sentFinishReason !== undefined) choice.sentFinishReason ??= mark.sentFinishReason;
  }
  for (const [place, checked] of found.checkedChoices ?? []) {
    const choice = choices[place];
    if (choice === undefined) continue;
    choice.structured = checked;
    if (checked.sentFinishReason !== undefined)
      choice.sentFinishReason ??= checked.sentFinishReason;
  }
}

/**
 * What a whole answer's check found besides choice 0's checked value: choice 0's unchecked mark,
 * later choices' checked values and marks.
 */
type UncheckedFound = Pick<WholeChecked, 'unchecked' | 'uncheckedChoices' | 'checkedChoices'>;

/** What the call's answers are checked by: its Standard Schema when given, else the JSON Schema. */
function checkOf(call: SteeredChatInput, given: StructuredOutputSchema): StructuredOutputCheck {
  const standard = call.options.structuredOutput?.standard;
  const tools = (call.req.tools ?? []).map((tool) => tool.function.name);
  return standard === undefined
    ? { schema: given.schema, tools }
    : { schema: given.schema, standard, tools };
}

/** The call hands on its last model's answer that fails the check (`lastAnswer: 'returned'`). */
function returnsLastAnswer(call: SteeredChatInput): boolean {
  return call.options.structuredOutput?.lastAnswer === 'returned';
}
