// docs/gateway-protocol.md §4.1 (`tools`, `tool_choice`).
import type { LanguageModelV4CallOptions, SharedV4Warning } from '@ai-sdk/provider';
import type { ChatTool, ToolChoice } from '@infergate/core';

export interface PreparedTools {
  tools: ChatTool[] | undefined;
  toolChoice: ToolChoice | undefined;
  warnings: SharedV4Warning[];
}

/**
 * Maps AI SDK function tools and tool choice to the gateway's `tools` / `tool_choice` (docs/gateway-protocol.md §4.1).
 * Provider-defined tools belong to other providers: they are dropped with a warning.
 */
export function prepareTools({
  tools,
  toolChoice,
}: Pick<LanguageModelV4CallOptions, 'tools' | 'toolChoice'>): PreparedTools {
  const warnings: SharedV4Warning[] = [];
  const chatTools: ChatTool[] = [];

  for (const tool of tools ?? []) {
    if (tool.type !== 'function') {
      warnings.push({ type: 'unsupported', feature: `provider-defined tool ${tool.id}` });
      continue;
    }
    chatTools.push({
      type: 'function',
      function: {
        name: tool.name,
        ...(tool.description != null ? { description: tool.description } : {}),
        parameters: tool.inputSchema as Record<string, unknown>,
        ...(tool.strict != null ? { strict: tool.strict } : {}),
      },
    });
  }

  if (chatTools.length === 0) {
    return { tools: undefined, toolChoice: undefined, warnings };
  }

  return { tools: chatTools, toolChoice: mapToolChoice(toolChoice), warnings };
}

function mapToolChoice(
  toolChoice: LanguageModelV4CallOptions['toolChoice'],
): ToolChoice | undefined {
  switch (toolChoice?.type) {
    case undefined:
      return undefined;
    case 'auto':
    case 'none':
    case 'required':
      return toolChoice.type;
    case 'tool':
      return { type: 'function', function: { name: toolChoice.toolName } };
  }
}
