// docs/gateway-protocol.md §4.8 item 5 (a structured stream that fails before any content moves
// on), §4.7 (a stream may fail over until its first content).
/**
 * A structured stream's start, read in its attempt (loaded with the steering module): its first
 * content is what its map lets through to the caller, not the raw text. A stream whose map held
 * everything to its end (JSON in prose, whitespace, an unclosed think block) has given the caller
 * nothing: its answer is checked here, and a failure moves the walk on as a whole answer's does.
 */
import { type GatewayError, isGatewayError } from '../../errors/errors';
import type { AttemptAnswer } from '../../http/attempt-policy';
import type { ChatStreamEvent } from '../../protocol/chat-result-types';
import { ChatStreamDecoder } from './chat-stream-decoder';
import { readAhead } from './read-ahead';
import type { DecodedEvents, StructuredStream } from './sse-chat-stream';

/**
 * Reads on from the bytes `answer.chunks` holds until `hooks`' map lets content through before
 * the answer's end (undefined: the stream is handed over, those bytes decoded again), else to the
 * end: the check's failure, or undefined when it passed. Past `maxBytes`, or an answer that cannot
 * be decoded, is handed over for the stream to report; `signal` aborting (the call's end) cancels
 * the read and is the failure.
 */
export async function checkStructuredStart(
  answer: AttemptAnswer,
  hooks: StructuredStream,
  maxBytes: number,
  signal: AbortSignal,
): Promise<GatewayError | undefined> {
  if (answer.reader === undefined) return undefined;
  const decoder = new ChatStreamDecoder({ assemble: true });
  const source = lastTaken(decoder);
  const events = hooks.events(source);
  let through = false;
  const { bytes, failure } = await readAhead(answer, decoder, signal, (read) => {
    for (let event = events.take(); event; event = events.take()) {
      // Text a map releases with the finish is the answer's end, not content before it.
      if (isContent(event) && source.last?.type !== 'finish') {
        through = true;
        break;
      }
    }
    return through || decoder.done || read > maxBytes;
  });
  // The call's end, or an error event before any content: the attempt's failure; an answer that
  // cannot be decoded is the stream's to report.
  if (failure !== undefined) return isGatewayError(failure) ? failure : undefined;
  if (through || bytes > maxBytes) return undefined;
  // The answer is whole: the gateway has finished the request, refusing it cuts nothing.
  answer.readToEnd = true;
  return hooks.check(decoder.result()).then(
    () => undefined,
    (error: GatewayError) => error,
  );
}

/** The decoder's events, the last one taken kept (what the map's output came from). */
function lastTaken(decoder: ChatStreamDecoder): DecodedEvents & { last?: ChatStreamEvent } {
  const source: DecodedEvents & { last?: ChatStreamEvent } = {
    take() {
      source.last = decoder.take();
      return source.last;
    },
    takeAll() {
      const all = decoder.takeAll();
      source.last = all?.at(-1);
      return all;
    },
  };
  return source;
}

/**
 * Content the map let through: a text, reasoning or tool-call piece (what the decoder's `answered`
 * counts, but of the map's events; beside `answered`, the plain chat path would load it).
 */
function isContent(event: ChatStreamEvent): boolean {
  return (
    event.type === 'text-delta' ||
    event.type === 'reasoning-delta' ||
    event.type === 'tool-call-delta'
  );
}
