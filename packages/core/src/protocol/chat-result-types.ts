// docs/gateway-protocol.md §4.3 (the answer), §4.6 (requested and served model), §5.1 (stream
// events).
/**
 * What chat calls give back: the result of `chat`, the events of `chatStream` and the answer of
 * choice 0 read the same way from either (the adapters map these). The gateway's JSON shapes are
 * in wire-types.ts.
 */
import type { ChatRoute, StructuredOutputMethod } from './chat-route';
import type { ChatCompletionResponse, Usage } from './wire-types';

export interface ChatResult {
  /** The gateway's body as received. */
  response: ChatCompletionResponse;
  /**
   * Choice 0 read tolerantly (content parts joined, reasoning from `reasoning_content`,
   * `reasoning` or thinking parts, tool calls with ids): what the adapters map.
   */
  answer: AssembledChat;
  requestedModel: string;
  /** `X-Service-Model`, else the body's `model`, else the requested model. */
  servedModel: string;
  /** The gateway answered with another model than the one requested. */
  fallback: boolean;
  headers: Headers;
  /**
   * Every choice of an answer that has several (a request with `n` > 1), each read as `answer` is,
   * in the order of their indexes: `answer` (choice 0) first. Absent for an answer of one choice.
   * Only `answer` is reported (events, usage). Structured output checks each: a choice that passed
   * carries its own `structured` (its checked value, the calls and finish the server sent in it),
   * one handed on unchecked (`structuredOutput.lastAnswer: 'returned'`) its own `structuredUnchecked`.
   */
  choices?: AssembledChat[];
  /**
   * The models the call went through (`model` + `fallbackModels`): skipped, tried and left, and
   * the one that answered. Without `fallbackModels`: one hop, the requested model.
   */
  route: ChatRoute;
  /**
   * A call asking for structured output (`response_format` `json_schema`): the answer's value,
   * checked against the schema, and how the answering model served it. `answer.text` is then the
   * JSON itself.
   */
  structured?: StructuredResult;
  /**
   * The last model's answer handed on unchecked (`structuredOutput.lastAnswer: 'returned'`: it
   * failed the check, `structured` is unset): how the model served the schema, as `structured`
   * says it, without a value. Absent for a step of the caller's tool loop.
   */
  structuredUnchecked?: UncheckedStructured;
}

/** A structured answer that passed its check: its value, and how the model served the schema. */
export interface StructuredResult {
  /** The value checked: the JSON parsed, or the output of `structuredOutput.standard`. */
  value: unknown;
  method: StructuredOutputMethod;
  /**
   * The forced call of the schema's tool the model answered by, when `method` is `tools`: its id,
   * its name (the schema's, as sent) and its arguments as the model sent them. The answer hands
   * no tool call on (its text is the JSON, its `toolCalls` empty): this is for a caller that
   * shows the model's own message, as a framework's raw answer does. Absent for other methods.
   */
  toolCall?: {
    id: string;
    name: string;
    /** The call's argument text as the model sent it (a wrapped root's `{"value": …}` included). */
    arguments: string;
  };
  /**
   * Every tool call the server sent in the answer, in the order sent (the forced call among them,
   * and any other: a second call, a call of a tool nobody offered), each with its id, name and
   * arguments as read; absent when it sent none. The answer hands none of them on: this is for a
   * caller that shows the model's own message, as a framework's raw answer does (ChatOpenAI's
   * lists every call the server sent).
   */
  sentToolCalls?: { id: string; name: string; arguments: string }[];
  /**
   * Choice 0's `finish_reason` as the server sent it, when the answer reports another: `tool_calls`
   * (the schema's forced call, or a call of a tool nobody offered) reported as `stop`. For a caller
   * that shows the model's own message, as a framework's raw answer does.
   */
  sentFinishReason?: string;
}

/**
 * How the model served a structured answer handed on unchecked (it failed the check, and the call
 * asked `structuredOutput.lastAnswer: 'returned'`): the forced call (`tools`) and the finish as
 * sent, as `StructuredResult` has them, with no checked value. For a caller that shows the
 * model's own message, as a framework's raw answer does.
 */
export type UncheckedStructured = Omit<StructuredResult, 'value'>;

export type ChatStreamEvent =
  | { type: 'role'; role: 'assistant'; id?: string; model?: string }
  /**
   * The answer's `id`, `model` and `created` (Unix seconds) known so far; sent when a chunk brings
   * the first non-empty value of any of them (whichever chunk carries it, role chunk or not).
   */
  | { type: 'metadata'; id?: string; model?: string; created?: number }
  /** The model's reasoning (`reasoning_content`, `reasoning`, thinking parts); before its text. */
  | {
      type: 'reasoning-delta';
      delta: string;
      choiceIndex: number;
      /**
       * The reasoning came as a part of `content` (Mistral's `thinking` parts), not in a reasoning
       * field: its place among the text is the model's. A field's reasoning (`reasoning_content`)
       * belongs before the text, as a whole answer reads it, whenever it arrives.
       */
      inContent?: true;
    }
  | { type: 'text-delta'; delta: string; choiceIndex: number }
  /**
   * A piece of the audio the model spoke (`delta.audio`, asked with `modalities` and `audio`): the
   * fields this piece carried. `data` (base64) and `transcript` pieces add up; `id` and
   * `expiresAt` come on any piece (see `AssembledChat.audio`).
   */
  | {
      type: 'audio-delta';
      choiceIndex: number;
      id?: string;
      data?: string;
      transcript?: string;
      expiresAt?: number;
    }
  /** An image the model generated (`delta.images`, OpenRouter's), whole: its URL, often a data URL. */
  | { type: 'image'; url: string; choiceIndex: number }
  | {
      /**
       * A piece of one of choice 0's tool calls (the answer's: another choice's calls, as with
       * `n` > 1, are not read, so their pieces never join these).
       */
      type: 'tool-call-delta';
      /** The server's `tool_calls[].index`. */
      index: number;
      /**
       * The call this piece belongs to, numbered from 0 in the order the calls started. Usually
       * equal to `index`; a piece at a used index that carries another `id` starts a new call
       * (some servers send every call at index 0), so join pieces by `call`, not by `index`.
       */
      call: number;
      /**
       * The call's id: on its first piece always — the server's, or `call_<index>_<order>` when
       * it sent none (an empty `id` is none), as `result()` names it — and on later pieces that
       * repeat it.
       */
      id?: string;
      /** The function's name, on each piece that carries one (some servers repeat it whole). */
      name?: string;
      argumentsDelta: string;
      /**
       * The call's `extra_content` (see `AssembledToolCall.extraContent`), on the first piece that
       * carries an object there: once per call at most, on an event that carries the call's `id`.
       */
      extraContent?: Record<string, unknown>;
    }
  | {
      type: 'finish';
      reason: string;
      choiceIndex: number;
      /**
       * The `finish_reason` as the server sent it, when `reason` is another: a refused `stop`
       * (OpenAI's `refusal`) is reported as `content_filter`, a structured answer's `tool_calls`
       * as `stop` (docs/gateway-protocol.md §4.8 item 5), for adapters that keep the raw word.
       */
      sent?: string;
      /**
       * The answer's `system_fingerprint` and `service_tier` (OpenAI's), when a chunk carried a
       * non-empty one: the first chunk that named the answer (`id`, `model`, `created`), else the
       * finishing chunk (a value only on chunks in between is not read).
       */
      systemFingerprint?: string;
      serviceTier?: string;
    }
  | {
      type: 'usage';
      usage: Usage;
      /**
       * The answer's `system_fingerprint` and `service_tier` as known so far (read as the finish
       * event's are, and on the usage chunk too: a server that sends them only on its repeated
       * finish chunk, with the usage, is heard here).
       */
      systemFingerprint?: string;
      serviceTier?: string;
    }
  /**
   * A chunk's `logprobs` for one choice (sent when the request asked with `logprobs: true`), as
   * the server sent it (OpenAI's `{ content, refusal }`): one event per chunk that carried an
   * object there, after that chunk's text.
   */
  | { type: 'logprobs'; logprobs: Record<string, unknown>; choiceIndex: number }
  /**
   * A piece of choice 0's legacy `function_call` (OpenAI's `functions` API, before tool calls):
   * its name where the piece had one, and its arguments' text. Not a tool call; not assembled.
   */
  | { type: 'function-call-delta'; name?: string; argumentsDelta: string }
  /**
   * One SSE event's JSON as the server sent it (every field, known or not: Perplexity's
   * `citations`, Groq's `x_groq`, …), before the events decoded from it; only when the call asked
   * with `rawChunks: true`. An error event fails the stream instead; `[DONE]` has none.
   */
  | { type: 'raw'; chunk: Record<string, unknown> };

export interface AssembledToolCall {
  id: string;
  name: string;
  /** The joined argument text; `"{}"` when the model sent none. */
  arguments: string;
  /**
   * The call's `extra_content` as the model server sent it (the same object; in a stream, the
   * first piece's that had one). Gemini keeps its thought signature there
   * (`extraContent.google.thought_signature`) and refuses the next request unless the call is
   * sent back with it: replay it as `tool_calls[i].extra_content` (`toolCallOf` in
   * `@infergate/core/internal` does). Absent when the server sent none or a non-object.
   */
  extraContent?: Record<string, unknown>;
}

/**
 * The audio a model spoke (OpenAI's `message.audio`, asked with `modalities: ['text', 'audio']`
 * and `audio: {voice, format}` sent as extra request fields), a stream's pieces joined.
 */
export interface AssembledAudio {
  /** The server's id: send it back (`{role: 'assistant', audio: {id}}`) to refer to this audio. */
  id?: string;
  /** The audio, base64, in the format asked (`audio.format`); '' when none came. */
  data: string;
  /** What the audio says; '' when none came. */
  transcript: string;
  /** `expires_at`: Unix seconds after which the server no longer knows `id`. */
  expiresAt?: number;
}

/** An image a model generated (OpenRouter's `message.images`). */
export interface AssembledImage {
  /** `image_url.url` as sent: usually a data URL (`data:image/png;base64,…`), else a link. */
  url: string;
}

/** The answer of choice 0, read the same way from a stream or a non-streamed completion. */
export interface AssembledChat {
  id?: string;
  model?: string;
  /** `created` of the answer, in Unix seconds. */
  created?: number;
  text: string;
  /** The model's reasoning, when it sent any (`reasoning_content`, `reasoning`, thinking parts). */
  reasoning?: string;
  /**
   * The model declined (OpenAI's `refusal`): its words, also in `text`; `finishReason` is then
   * `content_filter` where the server said `stop`.
   */
  refusal?: string;
  toolCalls: AssembledToolCall[];
  /**
   * A stream's tool calls that never got a function name (`name` is `""`): not calls to run, so
   * not in `toolCalls`; kept here to show what the model sent. Absent when none.
   */
  unnamedToolCalls?: AssembledToolCall[];
  /** Choice 0's `finish_reason` as sent; `null` when it had none (a non-streamed answer may: the spec allows null). */
  finishReason: string | null;
  /**
   * Choice 0's `finish_reason` as the server sent it, when `finishReason` is another: a refused
   * `stop` is reported as `content_filter`, a structured answer's `tool_calls` as `stop` (as a
   * stream's `finish` event keeps it in `sent`).
   */
  sentFinishReason?: string;
  usage?: Usage;
  /**
   * A whole answer's choice 0 `logprobs` (sent when the request asked with `logprobs: true`), as
   * the server sent them, when an object. A stream's are its `logprobs` events (one per chunk).
   */
  logprobs?: Record<string, unknown>;
  /**
   * Choice 0's legacy `function_call` (OpenAI's `functions` API, before tool calls), when a whole
   * answer's message had one: its name and its arguments as JSON text. Not a tool call.
   */
  functionCall?: { name: string; arguments: string };
  /** A call asking for structured output: the checked value (as `ChatResult.structured`). */
  structured?: StructuredResult;
  /**
   * An answer handed on unchecked: how it was served (as `ChatResult.structuredUnchecked`); on
   * each choice of `ChatResult.choices` that was, its own.
   */
  structuredUnchecked?: UncheckedStructured;
  /** The audio the model spoke, when it sent any (`message.audio`, or `delta.audio` pieces). */
  audio?: AssembledAudio;
  /** The images the model generated, in the order sent (`message.images` / `delta.images`). */
  images?: AssembledImage[];
}

export interface ChatStream extends AsyncIterable<ChatStreamEvent> {
  readonly requestedModel: string;
  readonly servedModel: string;
  readonly fallback: boolean;
  readonly headers: Headers;
  /**
   * The models the call went through before this stream opened (`model` + `fallbackModels`):
   * known once the stream is, since a stream fails over only before its first bytes.
   */
  readonly route: ChatRoute;
  /** Consumes what is left and resolves to the assembled answer; rejects with the stream's error. */
  result(): Promise<AssembledChat>;
  /**
   * The events decoded from the next network chunk (never empty), undefined at the end; throws
   * like iteration. Cheaper than `for await` when many small events arrive together; the two may
   * be mixed on one stream.
   */
  readBatch(): Promise<ChatStreamEvent[] | undefined>;
  /**
   * Stops reading and releases the concurrency slot. Resolves once the call ended (its `done`
   * told); a stop held for choices of `n` not begun yet, once decided (within 100 ms); after the
   * last finish at once (the call ends ok by itself).
   */
  cancel(reason?: unknown): Promise<void>;
}
