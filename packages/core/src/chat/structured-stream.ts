// docs/gateway-protocol.md §4.8 (structured output: a stream's JSON as it comes, checked at its end).
/**
 * A stream of a call asking for structured output, as its caller reads it: the JSON text as it
 * comes — for `tools`, the first schema call's argument pieces as text deltas (no tool-call event
 * for that tool, the model's own text left out); else the text deltas with a code fence and the
 * prose around it left out (`jsonTextEvents`; a tool step's text kept as it came) — and, at its
 * end, the assembled answer checked against the schema (a failure ends the stream with
 * `invalid_structured_output`). Loaded with the steering module.
 */
import { describeGiven } from '../call/option-groups';
import { invalidRequest } from '../errors/errors';
import type { AssembledChat, ChatStreamEvent } from '../protocol/chat-result-types';
import type { HopStructuredOutput, StructuredOutputMethod } from '../protocol/chat-route';
import { asksSeveralChoices } from '../protocol/several-choices';
import type { ChatRequest } from '../protocol/wire-types';
import { jsonInText } from '../steering/json-in-text';
import { type EventMap, jsonTextEvents, settled, textDelta } from '../steering/json-text-events';
import { schemaName, unwrappedJsonText, wrapsRoot } from '../steering/structured-output-request';
import {
  answerFinish,
  checkedStructuredAnswer,
  ownToolCalls,
  type StructuredAsk,
  servedBy,
  structuredFinishEvent,
} from './checked-structured-answer';
import { isRefusalDelta } from './read-message-parts';
import type { DecodedEvents, MappedEvents, StructuredStream } from './stream/sse-chat-stream';
import { structuredResult } from './structured-completion';

/** What a stream's answer is checked by, and how its model was asked. */
export interface StreamCheck extends StructuredAsk {
  model: string;
  method: StructuredOutputMethod;
  /** The request has tools of its own: its answer may be a step of the caller's tool loop. */
  ownTools?: boolean;
}

/** The stream's structured-output hooks (`hop`: its route's answered hop, marked once checked). */
export function structuredStream(asked: StreamCheck, hop?: HopStructuredOutput): StructuredStream {
  const { model, method, given } = asked;
  const name = schemaName(given);
  /** The events' trace (of the last decoder read: a held start's, then the caller's). */
  let trace = newTrace();
  return {
    events: (decoder) => {
      trace = newTrace();
      const map =
        method === 'tools'
          ? schemaToolAsText(name, wrapsRoot(given.schema))
          : strayCallsLeftOut(
              asked.check.tools ?? [],
              jsonTextEvents({ ownTools: asked.ownTools, schema: true }),
            );
      return mapped(decoder, map, trace);
    },
    async check(answer: AssembledChat): Promise<AssembledChat> {
      // A step of the caller's own tool loop: not the structured answer yet, passed on unchecked
      // (but for calls of tools nobody offered, left out of its events too).
      const own = ownToolCalls(answer.toolCalls, method, asked.check);
      if (own.length > 0) {
        return own.length === answer.toolCalls.length ? answer : { ...answer, toolCalls: own };
      }
      trace.drain();
      const refused = answer.refusal !== undefined;
      // The JSON is read from the content alone. A refusal after choice 0's finish was given
      // (which said the answer was not refused) fails the answer, even one handed on refused.
      const { value, json, reasoning, checked } = await checkedStructuredAnswer(
        model,
        method,
        answer,
        trace.late ? { ...asked, returnRefused: false } : asked,
        refused ? { ...answer, text: trace.content } : answer,
      );
      if (hop) hop.checked = checked;
      // No call is handed on: the schema's is the JSON, any other names a tool nobody offered. A
      // refused answer's text is its events' (the refusal's words where they came, once).
      const finishReason = answerFinish(answer.finishReason, refused);
      const text = refused ? trace.given : json;
      const clean: AssembledChat = { ...answer, text, toolCalls: [], finishReason };
      // The finish as the server sent it, when reported as another (`tool_calls` as `stop`).
      const sent = answer.sentFinishReason ?? answer.finishReason;
      if (sent !== null && sent !== finishReason) clean.sentFinishReason = sent;
      // (A refused answer handed on, `returnRefused`: its text as streamed, no checked value.)
      if (checked) clean.structured = structuredResult(value, method, answer, asked);
      else clean.structuredUnchecked = servedBy(method, answer, asked);
      // A think block before the JSON: the answer's reasoning, as its events gave it.
      if (reasoning !== undefined) clean.reasoning = (answer.reasoning ?? '') + reasoning;
      return clean;
    },
  };
}

/**
 * The hooks of a stream asking for JSON with no schema (`json_object`), read by the fence rule as
 * a schema's is (§4.8 items 5 and 6): its events through `jsonTextEvents`, and its assembled text
 * as its JSON unless the answer is a tool step (`ownTools`: the request has tools of its own).
 */
export function jsonTextHooks(ownTools: boolean): StructuredStream {
  let trace = newTrace();
  return {
    events: (decoder) => {
      trace = newTrace();
      return mapped(decoder, jsonTextEvents({ ownTools }), trace);
    },
    check: async (answer) => {
      if (answer.toolCalls.length > 0) return answer;
      // A refused answer's text is its events' (the refusal's words where they came, once).
      if (answer.refusal === undefined) return { ...answer, text: jsonInText(answer.text) };
      trace.drain();
      return { ...answer, text: trace.given };
    },
  };
}

/**
 * The first call of the schema's tool (`name`): its argument pieces as text deltas, no tool-call
 * event; its finish `tool_calls` is `stop` (the caller asked for an answer, not a call). As in a
 * whole answer, the JSON is that call's alone: the model's own first-choice text (prose before
 * the forced call), a second call of the tool and a call of another (none was offered: the
 * request has no tools of its own when `tools` serves it) are left out. A `wrapped` root's
 * arguments are held until the finish, then given as the JSON of their one property's value. A
 * call's pieces before its name (`namedCalls`) are held and then given with it, or left out.
 */
function schemaToolAsText(name: string, wrapped: boolean): EventMap {
  const named = namedCalls();
  /** The call (the decoder's `call` number) of the schema's tool that is the answer: its first. */
  let answer: number | undefined;
  /** A wrapped root's arguments, held until the finish; undefined once given. */
  let held: string | undefined = '';
  return (event) => {
    if (event === undefined) return undefined;
    if (event.type === 'text-delta') return event.choiceIndex === 0 ? undefined : event;
    if (event.type === 'tool-call-delta') {
      const call = named(event);
      if (call?.name === name) answer ??= event.call;
      if (call === undefined || event.call !== answer) return undefined;
      const text = call.pieces.map((piece) => piece.argumentsDelta).join('');
      if (!wrapped) return textDelta(text);
      held = (held ?? '') + text;
      return undefined;
    }
    if (event.type === 'finish' && !event.choiceIndex && answer !== undefined) {
      const json = wrapped && held !== undefined ? textDelta(unwrappedJsonText(held)) : undefined;
      held = undefined;
      const finish = structuredFinishEvent(event);
      return json ? [json, finish] : finish;
    }
    return event;
  };
}

/**
 * `inner` without the pieces of calls of tools the request did not offer (`offered`: its own
 * tools' names), which the caller never asked for, nor of calls never named (as the assembled
 * answer, whose calls are its own only when they name an offered tool); the finish of an answer
 * that then has no call left is `structuredFinish`'s (`tool_calls` is `stop`).
 */
function strayCallsLeftOut(offered: readonly string[], inner: EventMap): EventMap {
  const named = namedCalls();
  /** A call of an offered tool has been given. */
  let kept = false;
  const map: EventMap = (event) => {
    if (event?.type === 'tool-call-delta') {
      const call = named(event);
      if (call === undefined || !offered.includes(call.name)) return undefined;
      kept = true;
      return call.pieces.flatMap((piece) => inner(piece) ?? []);
    }
    if (event?.type === 'finish' && !kept) {
      return inner(structuredFinishEvent(event));
    }
    return inner(event);
  };
  map.settle = () => settled(inner);
  return map;
}

type ToolCallPiece = Extract<ChatStreamEvent, { type: 'tool-call-delta' }>;

/**
 * Each call's pieces held until one names its function: a server may name a call in a later chunk
 * than the one that opens it, and a call is told apart (the schema's, an offered tool's, a stray)
 * only by its name. Gives, per piece, undefined while its call is unnamed, else the call's name
 * and the pieces to give now (the held ones first, in order).
 */
function namedCalls(): (
  piece: ToolCallPiece,
) => { name: string; pieces: ToolCallPiece[] } | undefined {
  const names = new Map<number, string>();
  const unnamed = new Map<number, ToolCallPiece[]>();
  return (piece) => {
    const known = names.get(piece.call);
    if (known !== undefined) return { name: known, pieces: [piece] };
    const pieces = [...(unnamed.get(piece.call) ?? []), piece];
    if (!piece.name) {
      unnamed.set(piece.call, pieces);
      return undefined;
    }
    names.set(piece.call, piece.name);
    unnamed.delete(piece.call);
    return { name: piece.name, pieces };
  };
}

/**
 * What a structured stream's events met, for its check: choice 0's text as the decoder gave it
 * but the refusal's pieces (`content`: where the JSON is read from), the text of the events given
 * (`given`: the refusal's pieces among the JSON's, as they came), whether a refusal came
 * (`refused`) and whether after choice 0's finish was given (`late`: that finish cannot say so).
 * `drain` maps the decoder's events not taken yet (the check runs once the decoder has them all).
 */
interface StreamTrace {
  content: string;
  given: string;
  refused: boolean;
  late: boolean;
  drain(): void;
}

function newTrace(): StreamTrace {
  return { content: '', given: '', refused: false, late: false, drain: () => {} };
}

/**
 * The decoder's events through `map`, but a refusal's words (choice 0's `delta.refusal`), which
 * are given as they come, unmapped (they are not the JSON); a finish of choice 0 after them is
 * reported as refused (`content_filter` where it is `stop`, as in a whole answer). `trace` is
 * told what they were.
 */
function mapped(decoder: DecodedEvents, map: EventMap, trace: StreamTrace): MappedEvents {
  /** Events `take` mapped but has not given yet. */
  let queued: ChatStreamEvent[] = [];
  /** Choice 0's finish was given. */
  let finished = false;
  /** Choice 0's content (not the refusal's) reached the caller as a text event. */
  let shown = false;
  const given = (event: ChatStreamEvent): ChatStreamEvent => {
    if (event.type === 'text-delta' && !event.choiceIndex) {
      trace.given += event.delta;
      shown ||= !isRefusalDelta(event);
    }
    if (event.type !== 'finish' || event.choiceIndex) return event;
    finished = true;
    if (!trace.refused) return event;
    const reason = answerFinish(event.reason, true) ?? event.reason;
    return reason === event.reason ? event : { ...event, reason, sent: event.sent ?? event.reason };
  };
  const through = (event: ChatStreamEvent | undefined): ChatStreamEvent[] => {
    if (event?.type === 'text-delta' && !event.choiceIndex) {
      if (isRefusalDelta(event)) {
        trace.refused = true;
        trace.late ||= finished;
        // Content the map holds until the JSON is known came first: what it has decided is text
        // (prose before the JSON) goes before the refusal; a think block or a fence still open
        // is held on (the refusal ends no block: its rest is read as the map reads it).
        const held = trace.content !== '' && !shown ? [settled(map) ?? []].flat() : [];
        return [...held, event].map(given);
      }
      trace.content += event.delta;
    }
    return [map(event) ?? []].flat().map(given);
  };
  trace.drain = () => {
    queued = queued.concat(decoder.takeAll()?.flatMap(through) ?? []);
  };
  return {
    take() {
      while (queued.length === 0) {
        const event = decoder.take();
        if (event === undefined) return undefined;
        queued = through(event);
      }
      return queued.shift();
    },
    takeAll() {
      const all = queued.concat(decoder.takeAll()?.flatMap(through) ?? []);
      queued = [];
      return all.length > 0 ? all : undefined;
    },
    failed() {
      // The decoder's events not taken yet go through the map before its end: once ended, it
      // passes text as it is (a think block, a fence, prose would reach the caller raw).
      const pending = decoder.takeAll()?.flatMap(through) ?? [];
      queued = queued.concat(pending, through(undefined));
    },
  };
}

/**
 * A structured stream asking for several choices (`n`, read as `asksSeveralChoices` reads it, as
 * the adapters refuse any stream's), refused before anything is sent: its answer is read and
 * checked for one choice (choice 0), so any other would reach the caller unchecked. `chat` checks
 * every choice (structured-completion.ts).
 */
export function refuseStructuredChoices(req: ChatRequest): void {
  if (!asksSeveralChoices(req.n)) return;
  throw invalidRequest(
    'n',
    `${describeGiven(req.n)}, not 1: a streamed structured answer is read and checked for one choice, any other would go out unchecked; call chat() (every choice checked) or set n to 1`,
  );
}
