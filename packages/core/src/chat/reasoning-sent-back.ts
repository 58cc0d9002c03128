// docs/gateway-protocol.md §4.1 (reasoning of earlier assistant turns sent back).

/**
 * Whether an earlier assistant turn goes back with its reasoning (`reasoning_content`), for the
 * adapters' `sendReasoning`: `true` every turn's, `false` none. Unset: only a turn that made tool
 * calls, which thinking models (DeepSeek V4, Kimi K2, MiMo) refuse with a 400 without it; other
 * turns' reasoning they ignore, so it is dropped (fewer tokens). (LangChain's model passes `false`
 * for unset, as `ChatOpenAI` sends none: Groq and Cerebras refuse the field.) A value that is not
 * a boolean never gets here: `readFlags` refuses it when the model is built.
 */
export function sendsReasoningBack(setting: boolean | undefined, madeToolCalls: boolean): boolean {
  return setting ?? madeToolCalls;
}
