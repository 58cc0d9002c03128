// docs/gateway-protocol.md §4.8 (a structured answer's refusal), §5.1 (a streamed answer's finish).
// A chat answer the emulator never sends, for the adapters' tests that a refusal arriving after
// choice 0's finish chunk still makes the answer `content_filter`, streamed as whole.
import {
  choiceZeroChunk,
  oneMessageAnswer,
  type ScriptedChatBody,
  streamedAnswer,
} from './scripted-answers';

/** The content both ways: JSON, so a JSON-mode call reads the same bytes as a plain one. */
const CONTENT = '{"city":"Oslo"}';

/**
 * `body`'s answer (for `chatsAnsweredBy`): streamed, the content, `finish_reason: stop`, then a
 * chunk with `delta.refusal` "Sorry"; whole, the same content and refusal, finishing `stop`.
 */
export function refusedAfterFinish(body: ScriptedChatBody): Response {
  if (body.stream !== true) {
    return oneMessageAnswer(body.model, { content: CONTENT, refusal: 'Sorry' }, 'stop', false);
  }
  return streamedAnswer(body.model, [
    choiceZeroChunk({ role: 'assistant', content: CONTENT }),
    choiceZeroChunk({}, 'stop'),
    choiceZeroChunk({ refusal: 'Sorry' }),
  ]);
}
