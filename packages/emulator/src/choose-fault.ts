// docs/gateway-protocol.md §10.2, §5.3 (the failures a fault stands for).
import { validateChatRequest } from './chat/validate-chat-request';
import type { EndpointName } from './counters';
import {
  type ChosenFault,
  type FaultRule,
  faultMisfit,
  parseFaultHeader,
  takeFault,
} from './faults';
import { invalidField } from './gateway-error';
import { isJsonContent, type ParsedBody } from './request-context';

/** The `model` and `stream` a JSON body names, if readable (to match fault rules). */
function bodyFacts(body: unknown): { model?: string; stream: boolean } {
  if (typeof body !== 'object' || body === null) return { stream: false };
  const { model, stream } = body as { model?: unknown; stream?: unknown };
  return { model: typeof model === 'string' ? model : undefined, stream: stream === true };
}

/** What a fault needs of the body; `unread` when the endpoint will refuse the body itself. */
function faultFacts(endpoint: EndpointName, request: Request, body: () => ParsedBody) {
  if (endpoint !== 'chat' && endpoint !== 'embeddings') return { model: undefined, stream: false };
  // Read as the endpoint reads it: a body without a Content-Type is JSON too.
  if (!isJsonContent(request)) return { model: undefined, stream: false, unread: true };
  const parsed = body();
  return parsed.ok ? bodyFacts(parsed.value) : { model: undefined, stream: false, unread: true };
}

/**
 * The chat endpoint refuses this body itself (a `stream` of the wrong type, no `model`…): its own
 * 400 then wins over a fault that could not act on it, as it does for a body it cannot read.
 */
function chatRefuses(endpoint: EndpointName, body: () => ParsedBody): boolean {
  if (endpoint !== 'chat') return false;
  const parsed = body();
  try {
    if (parsed.ok) validateChatRequest(parsed.value);
    return false;
  } catch {
    return true;
  }
}

/**
 * The fault for one request: the `X-Emulator-Fault` header wins (a malformed one is refused with
 * 400 so that a typo fails loudly), else the first matching rule of `rules`, in order.
 */
export function chooseFault(
  request: Request,
  endpoint: EndpointName,
  apiKey: string,
  body: () => ParsedBody,
  rules: FaultRule[][],
): ChosenFault | undefined {
  const facts = faultFacts(endpoint, request, body);
  const header = request.headers.get('x-emulator-fault');
  if (header !== null && header.trim() !== '') {
    const parsed = parseFaultHeader(header);
    if (typeof parsed === 'string') throw invalidField('x-emulator-fault', parsed);
    // Refused rather than dropped: a test that asked for a fault must not pass without one.
    const misfit = faultMisfit(parsed.fault, endpoint, endpoint === 'chat' && facts.stream);
    // (A body the endpoint cannot read, or refuses, gets the endpoint's own refusal, not a misfit's.)
    if (misfit !== undefined && ('unread' in facts || chatRefuses(endpoint, body)))
      return undefined;
    if (misfit !== undefined) throw invalidField('x-emulator-fault', `X-Emulator-Fault ${misfit}`);
    return parsed;
  }
  return takeFault(rules, {
    endpoint,
    apiKey,
    model: facts.model,
    streaming: endpoint === 'chat' && facts.stream,
  });
}
