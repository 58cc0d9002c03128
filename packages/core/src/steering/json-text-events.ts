// docs/gateway-protocol.md §4.8 (structured output: a stream's JSON text as it comes, items 5 and 6).
/**
 * A stream's first-choice text read by the one fence rule (`JsonTextReader`), as event maps: for a
 * structured-output stream, and for a call asking for JSON with no schema (structured-stream.ts).
 */
import type { ChatStreamEvent } from '../protocol/chat-result-types';
import { JsonTextReader, jsonInText, splitThought, startsAsJson } from './json-in-text';

/**
 * The first choice's text read by `JsonTextReader` (a request with no tools of its own): what it
 * holds back comes before a finish, or before a tool call.
 */
function fenceLeftOut(): EventMap {
  const reader = new JsonTextReader();
  const map: EventMap = (event) => {
    if (event === undefined) return textDelta(reader.end());
    if (event.type === 'text-delta' && event.choiceIndex === 0) {
      const delta = reader.read(event.delta);
      return delta === '' ? undefined : { ...event, delta };
    }
    if (event.type !== 'finish' && event.type !== 'tool-call-delta') return event;
    const held = textDelta(reader.end());
    return held ? [held, event] : event;
  };
  map.settle = () => textDelta(reader.settle());
  return map;
}

/** Held text (or reasoning: `type`) as its event, none when empty. */
export function textDelta(
  delta: string | undefined,
  type: 'text-delta' | 'reasoning-delta' = 'text-delta',
): ChatStreamEvent | undefined {
  return delta ? { type, delta, choiceIndex: 0 } : undefined;
}

/**
 * `fenceLeftOut` for a request with tools of its own, whose answer may be a step of the caller's
 * tool loop, handed on as it came (§4.8 item 6): first-choice text that starts as JSON passes as
 * it comes (from its first character); text that starts otherwise (a fence, prose) is held as
 * sent, and comes whole before a tool call (a tool step's), or as its JSON (`JsonTextReader`'s
 * rule) before a finish without one. Other events pass while text is held: they move ahead of it.
 */
function toolStepKept(schema: boolean): EventMap {
  /** The text as sent, while it is held; `undefined` once text passes as it comes. */
  let held: string | undefined = '';
  return (event) => {
    if (held === undefined) return event;
    if (event === undefined) {
      // The stream failed while text was held: it is handed on as it came, before the error.
      const text = held;
      held = undefined;
      return textDelta(text);
    }
    if (event.type === 'text-delta' && event.choiceIndex === 0) {
      held += event.delta;
      if (!startsAsJson(held)) return undefined;
      // From its first character, as the checked answer's text (a tool step's loses only that).
      const delta = held.trimStart();
      held = undefined;
      return { ...event, delta };
    }
    if (event.type !== 'tool-call-delta' && event.type !== 'finish') return event;
    // Before a finish, its JSON; a schema's answer: a think block before it its reasoning.
    const [reasoning, rest] = schema ? splitThought(held) : [];
    const text = event.type === 'finish' ? jsonInText(rest ?? held) : held;
    held = undefined;
    return joined(
      textDelta(event.type === 'finish' ? reasoning : '', 'reasoning-delta'),
      textDelta(text),
      event,
    );
  };
}

/**
 * `inner` after a think block at the start of the first choice's text (`<think>`, after
 * whitespace, to `</think>`): the block comes as one reasoning delta once it closed, the text
 * after it goes to `inner`, as `splitThought` reads a whole answer. Text that may still open a
 * block, or is in one, is held; a finish, a tool call or the stream's failure hands it to `inner`.
 */
function thoughtLeftOut(inner: EventMap): EventMap {
  /** The text held; `undefined` once it is known where the text goes (then `inner` reads it). */
  let held: string | undefined = '';
  const give = (text: string) => (text ? inner(textDelta(text)) : undefined);
  const map: EventMap = (event) => {
    if (held === undefined) return inner(event);
    const text = held + (event?.type === 'text-delta' && !event.choiceIndex ? event.delta : '');
    if (text !== held) {
      const start = text.trimStart();
      const open = start.startsWith('<think>');
      if (open ? !text.includes('</think>') : '<think>'.startsWith(start)) {
        held = text;
        return undefined;
      }
      held = undefined;
      const [reasoning, rest] = splitThought(text);
      return joined(textDelta(reasoning, 'reasoning-delta'), give(rest));
    }
    if (event && event.type !== 'finish' && event.type !== 'tool-call-delta') return inner(event);
    // The text's end (a finish, a tool call, the stream's failure): what is held goes on first.
    held = undefined;
    return joined(give(text), inner(event));
  };
  // A refusal amid a block, or what may still open one, ends nothing: the held text waits.
  map.settle = () => (held === undefined ? settled(inner) : undefined);
  return map;
}

/**
 * What `map` has decided is text and gives before a refusal (`EventMap.settle`); a map without
 * that step gives all it holds and passes later text as it comes (as at the stream's failure).
 */
export function settled(map: EventMap): ReturnType<EventMap> {
  return map.settle ? map.settle() : map(undefined);
}

/** Maps' outputs as one list. */
function joined(...outs: ReturnType<EventMap>[]): ChatStreamEvent[] {
  return outs.flat().filter((out): out is ChatStreamEvent => out !== undefined);
}

/**
 * An event as the caller gets it: none, itself or another, or several; `undefined` (the stream
 * failed): what the map still holds.
 */
export interface EventMap {
  (event: ChatStreamEvent | undefined): ChatStreamEvent | ChatStreamEvent[] | undefined;
  /**
   * A refusal came (choice 0's words, which pass no map): what the map holds and has decided is
   * text, given before the refusal; text it cannot place yet (a think block, a fence) it keeps.
   */
  settle?(): ChatStreamEvent | ChatStreamEvent[] | undefined;
}

/** How a stream asking for JSON is read (`jsonTextEvents`). */
export interface JsonTextReading {
  /** The request has tools of its own: its answer may be a step of the caller's tool loop. */
  ownTools?: boolean | undefined;
  /** The call asks for a schema: a think block before the JSON is the answer's reasoning. */
  schema?: boolean;
}

/**
 * The events of a stream asking for JSON (§4.8 items 3, 5 and 6): a fence and the prose around it
 * left out, or, for a request with tools of its own, a tool step's text handed on as it came; for
 * a schema's answer, a think block before the JSON given as reasoning.
 */
export function jsonTextEvents({ ownTools, schema = false }: JsonTextReading): EventMap {
  if (ownTools) return toolStepKept(schema);
  return schema ? thoughtLeftOut(fenceLeftOut()) : fenceLeftOut();
}
