import { AIMessage, AIMessageChunk } from '@langchain/core/messages';
import { OutputParserException } from '@langchain/core/output_parsers';
import { describe, expect, it } from 'vitest';
import { GatewayStructuredOutputParser } from './structured-output-parser';

describe('GatewayStructuredOutputParser', () => {
  it('returns the value core checked (additional_kwargs.parsed) over the text', async () => {
    const parser = new GatewayStructuredOutputParser({ model: 'm' });
    const checked = new AIMessage({
      content: '{"n": "1"}',
      additional_kwargs: { parsed: { n: 1 } },
    });
    expect(await parser.invoke(checked)).toEqual({ n: 1 });
  });

  it('without a checked value, parses the JSON text; text that is not JSON is refused', async () => {
    const parser = new GatewayStructuredOutputParser({ model: 'm' });
    expect(await parser.invoke(new AIMessage('{"n": 2}'))).toEqual({ n: 2 });
    const error = await parser.invoke(new AIMessage('not json')).catch((caught) => caught);
    expect(error).toBeInstanceOf(OutputParserException);
    expect((error as OutputParserException).llmOutput).toBe('not json');
  });

  it('streams partial objects as the JSON grows (core gives the JSON alone), then the checked whole', async () => {
    const parser = new GatewayStructuredOutputParser({ model: 'm' });
    async function* chunks() {
      yield new AIMessageChunk('{"name": "Ad');
      yield new AIMessageChunk('a", "age"');
      yield new AIMessageChunk({
        content: ': 36}',
        additional_kwargs: { parsed: { name: 'Ada', age: 36 } },
      });
    }
    const parts: unknown[] = [];
    for await (const part of parser.transform(chunks(), {})) parts.push(part);
    expect(parts[0]).toEqual({ name: 'Ad' });
    expect(parts.at(-1)).toEqual({ name: 'Ada', age: 36 });
  });
});
