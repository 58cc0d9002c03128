// docs/gateway-protocol.md §4.1 (reasoning of earlier assistant turns sent back).
import { readNumber } from '../call/option-groups';

/**
 * Whether an earlier assistant turn goes back with its reasoning (`reasoning_content`), for the
 * adapters' `sendReasoning`: `true` every turn's, `false` none. Unset: only a turn that made tool
 * calls, which thinking models (DeepSeek V4, Kimi K2, MiMo) refuse with a 400 without it; other
 * turns' reasoning they ignore, so it is dropped (fewer tokens). (LangChain's model passes `false`
 * for unset, as `ChatOpenAI` sends none: Groq and Cerebras refuse the field.) Any other value (a
 * JavaScript caller's `'yes'`) is refused before the request is sent, as a model setting's.
 */
export function sendsReasoningBack(setting: boolean | undefined, madeToolCalls: boolean): boolean {
  if (setting !== undefined && typeof setting !== 'boolean') {
    readNumber(setting, { kind: 'boolean' }, 'sendReasoning', 'model setting');
  }
  return setting ?? madeToolCalls;
}
