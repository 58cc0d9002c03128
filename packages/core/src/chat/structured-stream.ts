// docs/gateway-protocol.md §4.8 (structured output: a stream's JSON as it comes, checked at its end).
/**
 * A stream of a call asking for structured output, as its caller reads it: the JSON text as it
 * comes — for `tools`, the schema tool's argument pieces as text deltas, no tool-call event for
 * that tool — and, at its end, the assembled answer checked against the schema (a failure ends the
 * stream with `invalid_structured_output`). Loaded with the steering module.
 */
import type { AssembledChat, ChatStreamEvent } from '../protocol/chat-result-types';
import type { HopStructuredOutput, StructuredOutputMethod } from '../protocol/chat-route';
import {
  checkStructuredAnswer,
  type StructuredOutputCheck,
} from '../steering/check-structured-answer';
import {
  jsonInText,
  readStructuredAnswer,
  type StructuredOutputSchema,
  schemaName,
} from '../steering/structured-output-request';
import type { StructuredStream } from './stream/sse-chat-stream';

/** What a stream's answer is checked by, and how its model was asked. */
export interface StreamCheck {
  model: string;
  method: StructuredOutputMethod;
  given: StructuredOutputSchema;
  check: StructuredOutputCheck;
}

/** The stream's structured-output hooks (`hop`: its route's answered hop, marked once checked). */
export function structuredStream(asked: StreamCheck, hop?: HopStructuredOutput): StructuredStream {
  const { model, method, given } = asked;
  const name = schemaName(given);
  /** The calls (the decoder's `call` numbers) of the schema's tool. */
  const schemaCalls = new Set<number>();
  return {
    map(event: ChatStreamEvent): ChatStreamEvent | undefined {
      if (method !== 'tools') return event;
      if (event.type === 'tool-call-delta') {
        if (event.name === name) schemaCalls.add(event.call);
        if (!schemaCalls.has(event.call)) return event;
        const delta = event.argumentsDelta;
        return delta === '' ? undefined : { type: 'text-delta', delta, choiceIndex: 0 };
      }
      if (event.type === 'finish' && event.reason === 'tool_calls' && schemaCalls.size > 0) {
        return { ...event, reason: 'stop' };
      }
      return event;
    },
    async check(answer: AssembledChat): Promise<AssembledChat> {
      const read = readStructuredAnswer(model, answer, given, method);
      const value = await checkStructuredAnswer(model, method, read, asked.check);
      if (hop) hop.checked = true;
      const clean: AssembledChat = { ...answer, structured: { value, method } };
      if (method !== 'tools') return { ...clean, text: jsonInText(read.text) };
      const toolCalls = answer.toolCalls.filter((call) => call.name !== name);
      const finishReason = toolCalls.length > 0 ? answer.finishReason : 'stop';
      return { ...clean, text: read.text.trim(), toolCalls, finishReason };
    },
  };
}
