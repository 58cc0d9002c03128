import { describe, expect, it } from 'vitest';
import { prepareTools } from './prepare-tools';

const weather = {
  type: 'function' as const,
  name: 'weather',
  description: 'Weather for a city',
  inputSchema: { type: 'object' as const, properties: { city: { type: 'string' as const } } },
};

describe('prepareTools', () => {
  it('sends nothing when there are no tools', () => {
    expect(prepareTools({ tools: undefined, toolChoice: { type: 'auto' } })).toEqual({
      tools: undefined,
      toolChoice: undefined,
      warnings: [],
    });
  });

  it('maps function tools to the gateway shape', () => {
    const prepared = prepareTools({ tools: [weather] });
    expect(prepared.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'weather',
          description: 'Weather for a city',
          parameters: weather.inputSchema,
        },
      },
    ]);
    expect(prepared.toolChoice).toBeUndefined();
  });

  it.each([
    [{ type: 'auto' as const }, 'auto'],
    [{ type: 'none' as const }, 'none'],
    [{ type: 'required' as const }, 'required'],
    [
      { type: 'tool' as const, toolName: 'weather' },
      { type: 'function', function: { name: 'weather' } },
    ],
  ])('maps tool choice %o', (toolChoice, expected) => {
    expect(prepareTools({ tools: [weather], toolChoice }).toolChoice).toEqual(expected);
  });

  it('drops provider-defined tools with an unsupported warning', () => {
    const prepared = prepareTools({
      tools: [weather, { type: 'provider', id: 'other.search', name: 'search', args: {} }],
    });
    expect(prepared.tools).toHaveLength(1);
    expect(prepared.warnings).toEqual([
      { type: 'unsupported', feature: 'provider-defined tool other.search' },
    ]);
  });
});
