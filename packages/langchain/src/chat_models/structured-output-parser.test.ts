import { AIMessage } from '@langchain/core/messages';
import { OutputParserException } from '@langchain/core/output_parsers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayStructuredOutputParser } from './structured-output-parser';

const schema = z.object({ n: z.number() });
const jsonSchema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };

describe('GatewayStructuredOutputParser', () => {
  it('parses JSON text, also inside a Markdown fence', async () => {
    const parser = new GatewayStructuredOutputParser({
      schema,
      jsonSchema,
      method: 'jsonMode',
      toolName: 'x',
      model: 'm',
    });
    expect(await parser.invoke(new AIMessage('{"n": 1}'))).toEqual({ n: 1 });
    expect(await parser.invoke(new AIMessage('```json\n{"n": 2}\n```'))).toEqual({ n: 2 });
  });

  it('reads the named tool call, and explains a missing or unparseable one', async () => {
    const parser = new GatewayStructuredOutputParser({
      schema: jsonSchema,
      jsonSchema,
      method: 'functionCalling',
      toolName: 'extract',
      model: 'm',
    });
    const ok = new AIMessage({
      content: '',
      tool_calls: [{ id: '1', name: 'extract', args: { n: 3 } }],
    });
    expect(await parser.invoke(ok)).toEqual({ n: 3 });
    await expect(parser.invoke(new AIMessage('no call'))).rejects.toThrow(/did not call "extract"/);
    const invalid = new AIMessage({
      content: '',
      invalid_tool_calls: [
        { id: '1', name: 'extract', args: '{"n":', error: 'bad', type: 'invalid_tool_call' },
      ],
    });
    await expect(parser.invoke(invalid)).rejects.toThrow(/not valid JSON/);
    await expect(
      parser.invoke(
        new AIMessage({
          content: '',
          tool_calls: [{ id: '1', name: 'extract', args: { n: 'x' } }],
        }),
      ),
    ).rejects.toBeInstanceOf(OutputParserException);
  });
});
