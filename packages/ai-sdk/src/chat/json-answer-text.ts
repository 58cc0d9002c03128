// docs/gateway-protocol.md §4.8 (structured output: a code fence is accepted, the caller gets clean JSON).
import type { ChatStream, ChatStreamEvent } from '@infergate/core';
import { jsonInText, jsonTextEvents } from '@infergate/core/internal/stream';
import type { ChatEventSource } from './convert-gateway-chat-stream';

/**
 * The JSON of a whole answer to a call asking for JSON with no schema (`Output.json()`), by core's
 * one fence rule, as a schema's answer is read: models wrap JSON in a ```json fence even in JSON
 * mode, which `ai` cannot parse. Loaded on such a call only (service-parts.ts).
 */
export const jsonAnswerText: (text: string) => string = jsonInText;

/**
 * `stream`'s events with its text read by the same rule as it comes (core's `jsonTextEvents`: a
 * request with tools of its own keeps a tool step's text as it came). A failure comes after the
 * text still held, as core hands a structured stream's on.
 */
export function jsonTextStream(stream: ChatStream, ownTools: boolean): ChatEventSource {
  const map = jsonTextEvents(ownTools);
  const mapAll = (events: ChatStreamEvent[]) => events.flatMap((event) => map(event) ?? []);
  let failure: { error: unknown } | undefined;
  return {
    servedModel: stream.servedModel,
    cancel: (reason) => stream.cancel(reason),
    async readBatch() {
      if (failure !== undefined) throw failure.error;
      try {
        const events = await stream.readBatch();
        return events && mapAll(events);
      } catch (error) {
        const held = [map(undefined) ?? []].flat();
        if (held.length === 0) throw error;
        failure = { error };
        return held;
      }
    },
  };
}
