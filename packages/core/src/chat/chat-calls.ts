// docs/gateway-protocol.md §4 (`POST /chat/completions`), §4.6 (fallback detection: requested and
// served model), §5.6 (usage asked for in a stream).
import type { CallOptions } from '../call/call-options';
import { jsonBody } from '../encoding/json-body';
import { GatewayError } from '../errors/errors';
import { invalidAnswer } from '../errors/invalid-response';
import type { Transport } from '../http/transport';
import { answeringModel } from '../protocol/answering-model';
import type { ChatResult, ChatStream } from '../protocol/chat-result-types';
import { ENDPOINTS } from '../protocol/endpoints';
import type { ChatCompletionResponse, ChatRequest } from '../protocol/wire-types';
import { readChatCompletion } from './assemble-chat';
import { streamedChatRequest } from './build-chat-request';
import { GatewayChatStream } from './stream/sse-chat-stream';
import { validateChatRequest } from './validate-chat';
import { chatCompletionProblem } from './validate-chat-response';

export interface ChatStreamOptions extends CallOptions {
  /**
   * `false`: the stream does not keep the answer's text and reasoning for `result()` (which then
   * has `text: ''` and `reasoning: ''`, with finish reason, usage and tool calls), for callers that
   * only iterate the events. Default `true`. Either way a stream's total size is bounded by
   * `maxResponseBytes`.
   */
  assemble?: boolean;
  /**
   * `false`: do not send `stream_options: { include_usage: true }` for this call (for model
   * servers that refuse unknown fields; the stream then has usage only if the server sends it
   * unasked). Default: the client's `streamUsage` (`true`). A request's own `stream_options` is
   * sent as given either way.
   */
  streamUsage?: boolean;
}

/** `POST /chat/completions` answered as one JSON completion, checked and read. */
export async function postChat(
  transport: Transport,
  req: ChatRequest,
  opts: CallOptions | undefined,
): Promise<ChatResult> {
  validateChatRequest(req);
  const requestedModel = req.model;
  const answer = await transport.json<ChatCompletionResponse>(
    { method: 'POST', path: ENDPOINTS.chat, body: jsonBody(withoutStream(req)), requestedModel },
    opts,
  );
  const redact = (text: string) => transport.redact(text);
  const problem = chatCompletionProblem(answer.data);
  if (problem) {
    throw invalidAnswer(redact, `The chat completion ${problem}`, answer, requestedModel);
  }
  const { data, headers } = answer;
  const assembled = readChatCompletion(data);
  if (assembled === undefined) {
    throw invalidAnswer(
      redact,
      'The chat completion has no choice 0 (its choices are all of other indexes)',
      answer,
      requestedModel,
    );
  }
  const servedModel = answeringModel(headers, data.model, requestedModel);
  return {
    response: data,
    answer: assembled,
    requestedModel,
    servedModel,
    fallback: servedModel !== requestedModel,
    headers,
  };
}

/** `POST /chat/completions` with `stream: true`: resolves once the answer's headers arrived. */
export async function openChatStream(
  transport: Transport,
  req: ChatRequest,
  opts: ChatStreamOptions | undefined,
  clientStreamUsage = true,
): Promise<ChatStream> {
  validateChatRequest(req);
  for (const name of ['assemble', 'streamUsage'] as const) {
    const value = opts?.[name];
    if (value !== undefined && typeof value !== 'boolean') {
      throw new GatewayError({
        code: 'invalid_request_error',
        message: `${name} (call option) must be a boolean, got ${typeof value}`,
        field: name,
      });
    }
  }
  const requestedModel = req.model;
  const streamUsage = opts?.streamUsage ?? clientStreamUsage;
  const open = await transport.open(
    {
      method: 'POST',
      path: ENDPOINTS.chat,
      body: jsonBody(streamedChatRequest(req, streamUsage)),
      accept: 'text/event-stream',
      requestedModel,
      stream: true,
    },
    opts,
  );
  const headers = open.response.headers;
  // A stream's chunks are not read for it: the header, else the requested model.
  const servedModel = answeringModel(headers, undefined, requestedModel);
  return new GatewayChatStream(open, {
    requestedModel,
    servedModel,
    fallback: servedModel !== requestedModel,
    headers,
    assemble: opts?.assemble !== false,
  });
}

/** The request as sent unstreamed: `stream` is the client's to set, whatever the caller put there. */
function withoutStream(req: ChatRequest): ChatRequest {
  const { stream: _ignored, ...rest } = req;
  return rest as ChatRequest;
}
