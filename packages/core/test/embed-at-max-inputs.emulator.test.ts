// The limit on the texts of one embeddings request is inclusive (docs/gateway-protocol.md §6, §11):
// embed() with exactly LIMITS.embeddingsMaxInputs texts is sent, in one request, and answered;
// one more is refused before sending, naming the count and the limit.
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../src/index';
import { caught, clientOn } from './helpers';

const MODEL = 'all-minilm-l6-v2';
const texts = (n: number) => Array.from({ length: n }, (_, i) => `text number ${i}`);

describe("embed() at the limit on a request's texts", () => {
  it('exactly the limit: sent in one request and answered, a vector per text', async () => {
    const gateway = await emulate();
    const answer = await clientOn(gateway).embed({
      input: texts(LIMITS.embeddingsMaxInputs),
      model: MODEL,
    });
    expect(answer.data).toHaveLength(LIMITS.embeddingsMaxInputs);
    expect(gateway.emulator.counters.requests.embeddings).toBe(1);
  });

  it('one more: refused before sending', async () => {
    const gateway = await emulate();
    const error = await caught(() =>
      clientOn(gateway).embed({ input: texts(LIMITS.embeddingsMaxInputs + 1), model: MODEL }),
    );
    expect(error.code).toBe('invalid_request_error');
    expect(error.message).toContain(`has ${LIMITS.embeddingsMaxInputs + 1} texts`);
    expect(error.message).toContain(`the limit is ${LIMITS.embeddingsMaxInputs}`);
    expect(gateway.emulator.counters.requests.embeddings ?? 0).toBe(0);
  });
});
