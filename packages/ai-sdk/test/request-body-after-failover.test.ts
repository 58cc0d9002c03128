// The request body ai shows after a steered call moved to a listed fallback model: the body of the
// hop that answered (`request.body`) or whose failure ended the call (`APICallError`'s
// `requestBodyValues`), naming that hop's model as the request sent did — not the first model's.

import { APICallError } from '@ai-sdk/provider';
import { emulate } from '@infergate/emulator/testing';
import { generateText, streamText } from 'ai';
import * as ai6 from 'ai-v6';
import { afterAll, afterEach, beforeEach, expect, it } from 'vitest';
import { createGateway as createGatewayV3 } from '../src/v6';
import { answeringChats, type ChatBody, gatewayThrough } from './providers';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const FIRST = 'community/general';
const SECOND = 'community/tools';
const infergate = { fallbackModels: [SECOND] };
const sent: ChatBody[] = [];
beforeEach(() => {
  sent.length = 0;
});

const refused = (code: string, status: number) =>
  Response.json({ error: { code, message: code } }, { status });

/** The first model busy; the second answered by `second` (by default, the emulator). */
function provider(second?: () => Response) {
  return gatewayThrough(emulated, failingFirst(second));
}

function failingFirst(second?: () => Response) {
  return answeringChats(
    (body, request) => {
      sent.push(body);
      if (body.model === FIRST) return refused('model_busy', 503);
      return second?.() ?? emulated.fetch(request);
    },
    (request) => emulated.fetch(request),
  );
}

it("generateText's request.body is the answering hop's", async () => {
  const result = await generateText({
    model: provider()(FIRST),
    prompt: 'hello there',
    providerOptions: { infergate },
    include: { requestBody: true },
  });
  expect(sent.map((body) => body.model)).toEqual([FIRST, SECOND]);
  expect(result.request.body).toMatchObject({ model: SECOND });
});

it("streamText's request.body is the answering hop's", async () => {
  const result = streamText({
    model: provider()(FIRST),
    prompt: 'hello there',
    providerOptions: { infergate },
    include: { requestBody: true },
  });
  await result.consumeStream();
  expect(sent.map((body) => body.model)).toEqual([FIRST, SECOND]);
  expect((await result.request).body).toMatchObject({ model: SECOND, stream: true });
});

it("an APICallError's requestBodyValues is the body of the hop whose failure ended the call", async () => {
  const failure = await generateText({
    model: provider(() => refused('invalid_request', 400))(FIRST),
    prompt: 'hello there',
    maxRetries: 0,
    providerOptions: { infergate },
  }).catch((error: unknown) => error);
  expect(APICallError.isInstance(failure), String(failure)).toBe(true);
  expect(sent.map((body) => body.model)).toEqual([FIRST, SECOND]);
  expect((failure as APICallError).requestBodyValues).toEqual(sent[1]);
});

it("ai@6's (`/v6`) generateText request.body is the answering hop's", async () => {
  const gateway = createGatewayV3({
    ...emulated.connection,
    fetch: failingFirst(),
    circuitBreaker: false,
  });
  const result = await ai6.generateText({
    model: gateway(FIRST),
    prompt: 'hello there',
    providerOptions: { infergate },
  });
  expect(sent.map((body) => body.model)).toEqual([FIRST, SECOND]);
  expect(result.request.body).toMatchObject({ model: SECOND });
});
