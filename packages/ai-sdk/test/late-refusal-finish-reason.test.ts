// A refusal sent after choice 0's finish chunk (content, `finish_reason: stop`, then a chunk with
// `delta.refusal`): core's `result()` reports the answer `content_filter` (sent `stop`), as the
// whole answer is. streamText's finish says what generateText says for the same bytes, on a plain
// answer and on a JSON-mode one (`Output.json()`, asked as `json_object`).
import { refusedAfterFinish } from '@infergate/emulator/testing';
import * as ai from 'ai';
import { describe, expect, it } from 'vitest';
import { answeringChats, providersOnMsw } from './providers';

const { gateway } = await providersOnMsw();

const fetch = answeringChats(refusedAfterFinish);

const cases = [
  { name: 'a plain answer', modelId: 'community/general', output: undefined },
  { name: 'a json_object answer', modelId: 'community/json-object', output: ai.Output.json() },
] as const;

describe.each(cases)('$name refused after its finish chunk', ({ modelId, output }) => {
  const call = () => ({
    model: gateway({ fetch, circuitBreaker: false })(modelId),
    ...(output ? { output } : {}),
    prompt: 'Where?',
    maxRetries: 0,
  });

  it('generateText: content-filter, raw stop (the whole answer)', async () => {
    // (Its step: `Output.json()` then fails on the refusal's words after the JSON.)
    const steps: unknown[] = [];
    await ai
      .generateText({
        ...call(),
        onStepFinish: (step) => {
          steps.push([step.finishReason, step.rawFinishReason]);
        },
      })
      .catch(() => undefined);
    expect(steps).toEqual([['content-filter', 'stop']]);
  });

  it("streamText: the finish part and the result say the same as generateText's", async () => {
    const result = ai.streamText({ ...call(), onError: () => {} });
    const finishes: unknown[] = [];
    for await (const part of result.fullStream) {
      if (part.type === 'finish') finishes.push([part.finishReason, part.rawFinishReason]);
    }
    expect(finishes).toEqual([['content-filter', 'stop']]);
    expect([await result.finishReason, await result.rawFinishReason]).toEqual([
      'content-filter',
      'stop',
    ]);
  });
});
