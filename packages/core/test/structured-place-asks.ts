// docs/gateway-protocol.md §4.8 (structured output on every model). What the structured-answer
// tests ask and how their chat is answered: a place (`{ city: string }`) asked by `json_schema`
// of a catalog model the emulator serves (`community/json-schema` by `json_schema`,
// `community/tools` by a forced call), and a stub sending the chat answers the emulator does not.
import { chatsAnsweredBy, emulate, oneMessageAnswer } from '@infergate/emulator/testing';
import { type ChatRequest, createGatewayClient } from '../src/index';

/** A chat answer's choice 0: the assistant `message` (content, refusal, calls…) and its finish. */
export type OneMessage = { message: Record<string, unknown>; finish: string };

/** A client whose chat answers are `answer(body)`'s, whole or as a stream of one delta. */
export async function clientAnswering(answer: (body: ChatRequest) => OneMessage) {
  const { connection } = await emulate();
  const fetch = chatsAnsweredBy(connection, (body) => {
    const { message, finish } = answer(body as ChatRequest);
    return oneMessageAnswer(body.model, message, finish, body.stream === true);
  });
  return createGatewayClient({ ...connection, circuitBreaker: false, fetch });
}

/** A place asked of `model` by `json_schema` (with `fields` over the request's). */
export const askingForAPlace = (model: string, fields: Partial<ChatRequest> = {}): ChatRequest => ({
  model,
  messages: [{ role: 'user', content: 'Where?' }],
  ...fields,
  response_format: {
    type: 'json_schema',
    json_schema: {
      name: 'place',
      schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
});

/** A failed structured answer handed on unchecked (`lastAnswer: 'returned'`), not thrown. */
export const RETURNED = { structuredOutput: { lastAnswer: 'returned' as const } };

/** A person (`{ name: string }`) asked of `model` by `json_schema`. */
export const askingForAPerson = (model: string): ChatRequest => ({
  model,
  messages: [{ role: 'user', content: 'Describe "Ada"' }],
  response_format: {
    type: 'json_schema',
    json_schema: {
      name: 'person',
      schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    },
  },
});
