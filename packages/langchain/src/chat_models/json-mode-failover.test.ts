// docs/gateway-protocol.md §4.5, §4.7 rule 3: `response_format: json_object` (JSON mode, no schema)
// with `fallbackModels`: a model whose answer is not JSON fails its hop in core, and the next
// model's JSON reaches LangChain's `JsonOutputParser`.
import { emulate, withJsonModeModels } from '@infergate/emulator/testing';
import { JsonOutputParser } from '@langchain/core/output_parsers';
import { afterAll, describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../index';

// `x/cut` answers every JSON request cut short (not JSON); `x/json` keeps its word.
const emulated = await emulate({ scenario: withJsonModeModels() });
afterAll(() => emulated.close());

describe('JSON mode with fallbackModels', () => {
  it('an answer that is not JSON moves on to the next model', async () => {
    const model = new GatewayChatModel('x/cut', {
      ...emulated.connection,
      fallbackModels: ['x/json'],
      maxRetries: 0,
    }).withConfig({ response_format: { type: 'json_object' } });
    const value = await model.pipe(new JsonOutputParser()).invoke('Where is "Oslo"?');
    expect(value).toEqual({ answer: 'Echo: Where is "Oslo"?' });
    expect(emulated.counters.requests.chat).toBe(2);
  });
});
