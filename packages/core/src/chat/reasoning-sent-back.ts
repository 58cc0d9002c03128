// docs/gateway-protocol.md §4.1 (reasoning of earlier assistant turns sent back).
import { isGatewayError } from '../errors/errors';

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

/**
 * How thinking models word their refusal of an earlier tool-call turn sent back without its
 * reasoning: DeepSeek V4's "The `reasoning_content` in the thinking mode must be passed back to
 * the API." (also without the backticks), Kimi K2's "thinking is enabled but reasoning_content is
 * missing in assistant tool call message at index 2".
 */
const REASONING_REQUIRED =
  /reasoning_content`? in the thinking mode must be passed back|reasoning_content is missing in assistant tool call message/i;

/** What the refusal's message gets: the adapters' setting that sends the reasoning back. */
const SEND_REASONING_HINT =
  ' — the model needs the reasoning of each earlier turn that made tool calls sent back as reasoning_content, which this request left out: set sendReasoning: true on the model';

/** Groq's (and Cerebras') refusal of an earlier turn's `reasoning_content`, which it does not take. */
const REASONING_UNSUPPORTED = /property 'reasoning_content' is unsupported/i;

/** What that refusal's message gets: the adapters' setting that sends no reasoning back. */
const SEND_NO_REASONING_HINT =
  ' — this model refuses the reasoning of earlier turns (reasoning_content) sent back: set sendReasoning: false on the model';

/**
 * `error` (any value) with, when it is a thinking model's 400 refusing a turn sent back without its
 * reasoning (in its words or its raw body), the adapters' `sendReasoning: true` named in its
 * message, once, after the server's words; its code, status and body unchanged. Any other value is
 * returned as it is. For an adapter whose `sendReasoning` left the reasoning out (LangChain's by
 * default, as `ChatOpenAI`), as a refused `stream_options` names `streamUsage: false`
 * (stream-usage-refusal.ts). Not retried with it: sending what the caller withheld is the caller's call.
 * The other way, unless `setting` is false: Groq's 400 refusing reasoning sent back names
 * `sendReasoning: false`. `setting`: the adapter's, as the model has it (unset: tool-call turns').
 */
export function namingSendReasoning(error: unknown, setting: boolean | undefined): unknown {
  if (!isGatewayError(error) || error.status !== 400) return error;
  const words = `${error.message}\n${error.body ?? ''}`;
  const hint =
    setting === false && REASONING_REQUIRED.test(words)
      ? SEND_REASONING_HINT
      : setting !== false && REASONING_UNSUPPORTED.test(words)
        ? SEND_NO_REASONING_HINT
        : undefined;
  if (hint !== undefined && !error.message.endsWith(hint)) {
    (error as { message: string }).message += hint;
  }
  return error;
}
