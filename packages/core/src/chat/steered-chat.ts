// docs/gateway-protocol.md §4.7 (a steered chat call), §4.8 (structured output per hop), §5.6 (its
// bodies ask for usage as the first).
/**
 * A chat call handed to the steering module, loaded with the steering module by the first call that steers
 * (chat-calls.ts), together with what reads a steered stream's first content and what checks a
 * structured answer: an app whose calls never steer loads none of it.
 */
import type { StructuredOutputOptions } from '../call/option-groups';
import type { OpenVia, RequestSpec } from '../http/transport';
import type { WholeAnswer } from '../http/whole-answer';
import type { StructuredResult } from '../protocol/chat-result-types';
import type { HopStructuredOutput } from '../protocol/chat-route';
import type { ChatRequest, ResponseFormat } from '../protocol/wire-types';
import type { StructuredOutputCheck } from '../steering/check-structured-answer';
import {
  type SteeredCall,
  type SteerInput,
  type StructuredServing,
  steerChatCall,
} from '../steering/steer-chat-call';
import { asksForStructuredOutput } from '../steering/steering-options';
import {
  type StructuredOutputSchema,
  schemaName,
  structuredRequest,
} from '../steering/structured-output-request';
import { chatBody, chatSpec } from './build-chat-request';
import { readToFirstContent } from './stream/first-content';
import type { StructuredStream } from './stream/sse-chat-stream';
import { checkedValueOf, checkWholeAnswer } from './structured-completion';
import { structuredStream } from './structured-stream';

/** A call that steers, as chat-calls.ts found it. */
export interface SteeredChat
  extends Pick<SteerInput, 'transport' | 'catalog' | 'client' | 'options' | 'needs'> {
  req: ChatRequest;
  stream: boolean;
  /** The call's `streamUsage`, else the client's. */
  streamUsage: boolean;
  options: SteerInput['options'] & { structuredOutput?: StructuredOutputOptions };
}

/**
 * A steered call; a structured call's checked value (non-streamed: checked in its attempt), or a
 * structured stream's hooks (`hop`: its route's answered hop, marked once its end is checked).
 */
export type SteeredChatCall<T> = SteeredCall<T> & {
  structured?: StructuredResult;
  structuredStream?: (hop: HopStructuredOutput | undefined) => StructuredStream;
};

/**
 * Sends the call through the steering module: each model's request is the call's, naming that
 * model, rewritten for the method it serves a schema by when the call asks for one.
 */
export async function steerChat<T>(
  call: SteeredChat,
  sendVia: (spec: RequestSpec, via?: OpenVia) => Promise<T>,
): Promise<SteeredChatCall<T>> {
  const { req, stream, streamUsage } = call;
  const spec = chatSpec(req, stream, streamUsage);
  const given = schemaAskedIn(req);
  const input: SteerInput = {
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
    firstContent: readToFirstContent,
  };
  if (given === undefined) return steerChatCall(input, (via) => sendVia(spec, via));
  input.structured = serving(call, given, spec.path);
  const sent: SteeredChatCall<T> = await steerChatCall(input, (via) => sendVia(spec, via));
  const { model, method } = sent;
  if (!stream) sent.structured = checkedValueOf((sent.answer as WholeAnswer).headers);
  else if (method !== undefined) {
    const check = checkOf(call, given);
    sent.structuredStream = (hop) => structuredStream({ model, method, given, check }, hop);
  }
  return sent;
}

/** The schema a request asks for (`response_format` `json_schema`), its name checked now. */
function schemaAskedIn(req: ChatRequest): StructuredOutputSchema | undefined {
  if (!asksForStructuredOutput(req)) return undefined;
  const format = (req.response_format as Extract<ResponseFormat, { type: 'json_schema' }>)
    .json_schema;
  const given: StructuredOutputSchema = { schema: format.schema as Record<string, unknown> };
  given.name = schemaName({ ...given, name: format.name }, 'response_format.json_schema.name');
  if (typeof format.description === 'string') given.description = format.description;
  if (typeof format.strict === 'boolean') given.strict = format.strict;
  return given;
}

/** How the walk serves the call's schema: each whole answer checked in its attempt. */
function serving(
  call: SteeredChat,
  given: StructuredOutputSchema,
  path: string,
): StructuredServing {
  const standard = call.options.structuredOutput?.standard;
  const check =
    standard === undefined ? { schema: given.schema } : { schema: given.schema, standard };
  const maxResponseBytes = call.transport.maxResponseBytes;
  return {
    ownTools: (call.req.tools ?? []).length > 0,
    checkWhole: (answer, model, method) =>
      checkWholeAnswer(answer, model, method, { given, check, maxResponseBytes, path }),
  };
}

/** What the call's answers are checked by: its Standard Schema when given, else the JSON Schema. */
function checkOf(call: SteeredChat, given: StructuredOutputSchema): StructuredOutputCheck {
  const standard = call.options.structuredOutput?.standard;
  return standard === undefined ? { schema: given.schema } : { schema: given.schema, standard };
}
