// docs/gateway-protocol.md §4.3 (the response's shape), §5.3 and §10.3 (an error in a 200 answer).

import { isJsonObject } from '../protocol/json-object';
import { readContent } from './read-message-parts';
import { typedUsage } from './typed-usage';

/**
 * Shape checks of 2xx answers, so that what a call returns is what its type promises. Each returns
 * what is wrong (for an `invalid_response` message) or undefined. They look only at the fields the
 * spec requires and the packages read: one pass, no copies, nothing rewritten but `usage` counts
 * of the wrong type (`typedUsage`).
 */

const isAbsent = (value: unknown) => value === undefined || value === null;

/** What is wrong with a message's `tool_calls`, said after the message's place (`.tool_calls …`). */
function toolCallsProblem(toolCalls: unknown): string | undefined {
  if (isAbsent(toolCalls)) return undefined;
  if (!Array.isArray(toolCalls)) return '.tool_calls that is not an array';
  for (let i = 0; i < toolCalls.length; i++) {
    const call: unknown = toolCalls[i];
    const fn = isJsonObject(call) ? call.function : undefined;
    // (Arguments sent as JSON rather than its text are read as that text: `argumentsText`.)
    if (!isJsonObject(fn) || typeof fn.name !== 'string' || isAbsent(fn.arguments)) {
      return `.tool_calls[${i}] that is not {function: {name, arguments}} with a string name and arguments given`;
    }
  }
  return undefined;
}

/** What is wrong with one choice, said after its place (`choices[i]`): named only on a failure. */
function choiceProblem(choice: unknown): string | undefined {
  if (!isJsonObject(choice)) return ' that is not an object';
  const { message, finish_reason: finishReason } = choice;
  if (!isJsonObject(message)) return ' without a `message` object';
  if (readContent(message.content) === undefined) {
    return '.message.content that is neither a string nor an array of parts';
  }
  const toolCalls = toolCallsProblem(message.tool_calls);
  if (toolCalls) return `.message${toolCalls}`;
  if (!isAbsent(finishReason) && typeof finishReason !== 'string') {
    return '.finish_reason that is not a string';
  }
  return undefined;
}

/** docs/gateway-protocol.md §4.3: `choices` is an array of `{index, message, finish_reason}`. */
export function chatCompletionProblem(data: unknown): string | undefined {
  if (!isJsonObject(data)) return 'is not a JSON object';
  const { choices } = data;
  if (!Array.isArray(choices)) return 'has no `choices` array';
  // A 200 without any choice is no answer (not an empty one).
  if (choices.length === 0) return 'has an empty `choices` array (no answer)';
  for (let i = 0; i < choices.length; i++) {
    const problem = choiceProblem(choices[i]);
    if (problem) return `has a choices[${i}]${problem}`;
  }
  if (isAbsent(data.usage)) return undefined;
  if (!isJsonObject(data.usage)) return 'has a `usage` that is not an object';
  // The one field rewritten: counts of the wrong type, so that they are the numbers `Usage` says.
  data.usage = typedUsage(data.usage);
  return undefined;
}
