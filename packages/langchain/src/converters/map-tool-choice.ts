// docs/gateway-protocol.md §4.1 (`tool_choice`, passed to the model server).
import type { ToolChoice as GatewayToolChoice } from '@infergate/core';
import type { ToolChoice } from '@langchain/core/language_models/chat_models';

/**
 * LangChain's `tool_choice` → the chat-completions form the gateway passes to the model server.
 * `"any"` (LangChain: "must call some tool") is `"required"`; another bare string names a tool.
 */
export function mapToolChoice(choice: ToolChoice | undefined): GatewayToolChoice | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (typeof choice === 'string') {
    if (choice === 'any' || choice === 'required') return 'required';
    if (choice === 'auto' || choice === 'none') return choice;
    return { type: 'function', function: { name: choice } };
  }
  if (choice.type === 'function' && typeof choice.function?.name === 'string') {
    return { type: 'function', function: { name: choice.function.name } };
  }
  // Other objects are provider-specific; they reach the model server unchanged.
  return choice as GatewayToolChoice;
}
