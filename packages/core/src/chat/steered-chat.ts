// docs/gateway-protocol.md §4.7 (a steered chat call), §5.6 (its bodies ask for usage as the first).
/**
 * A chat call handed to the steering module, loaded with the steering module by the first call that steers
 * (chat-calls.ts), together with what reads a steered stream's first content: an app whose calls
 * never steer loads none of it.
 */
import type { OpenVia, RequestSpec } from '../http/transport';
import type { ChatRequest } from '../protocol/wire-types';
import { type SteeredCall, type SteerInput, steerChatCall } from '../steering/steer-chat-call';
import { chatBody, chatSpec } from './build-chat-request';
import { readToFirstContent } from './stream/first-content';

/** A call that steers, as chat-calls.ts found it. */
export interface SteeredChat
  extends Pick<SteerInput, 'transport' | 'catalog' | 'client' | 'options' | 'needs'> {
  req: ChatRequest;
  stream: boolean;
  /** The call's `streamUsage`, else the client's. */
  streamUsage: boolean;
}

/** Sends the call through the steering module: each model's request is the call's, naming that model. */
export function steerChat<T>(
  call: SteeredChat,
  sendVia: (spec: RequestSpec, via?: OpenVia) => Promise<T>,
): Promise<SteeredCall<T>> {
  const { req, stream, streamUsage } = call;
  const spec = chatSpec(req, stream, streamUsage);
  const input: SteerInput = {
    ...call,
    spec,
    bodyFor: (model) =>
      model === req.model
        ? (spec.body as string)
        : chatBody({ ...req, model }, stream, streamUsage),
    firstContent: readToFirstContent,
  };
  return steerChatCall(input, (via) => sendVia(spec, via));
}
