// docs/gateway-protocol.md §2.2 (authentication).
import type { ChosenFault } from './faults';
import { invalidField } from './gateway-error';
import type { KeySettings, Scenario } from './scenario';

/** Everything an endpoint handler needs about one authenticated request. */
export interface RequestContext {
  scenario: Scenario;
  apiKey: string;
  key: KeySettings;
  request: Request;
  /** The body, read once. */
  bytes: Uint8Array<ArrayBuffer>;
  /** The body parsed as JSON, once, on first use. */
  body(): ParsedBody;
  /** The chosen fault, if any (stream faults only on streamed chat requests). */
  fault: ChosenFault | undefined;
  /** `Date.now()` value of the request's deadline. */
  deadline: number;
  signal: AbortSignal;
  /**
   * Hands the in-flight release to a streamed body; the caller then must call it, saying whether
   * the stream was cancelled before its end.
   */
  takeRelease(): (cancelled?: boolean) => void;
  /** Per-emulator sequence number, for response ids. */
  nextSequence(): number;
  /** Counts one more request on a model or service, for `inflight` and capacity checks. */
  occupy(resource: string): number;
  /**
   * Waits while a test holds this endpoint's answers (`holdAnswers`): called once the request is
   * accepted (valid, within its limits), so a refusal is never held. 504 past the deadline.
   */
  waitWhileHeld(): Promise<void>;
}

const decoder = new TextDecoder();

export type ParsedBody = { ok: true; value: unknown } | { ok: false; reason: 'empty' | 'invalid' };

/** Parses a body once; the result is shared by fault matching and the endpoint. */
export function parseBody(bytes: Uint8Array): ParsedBody {
  const text = decoder.decode(bytes);
  if (text.trim() === '') return { ok: false, reason: 'empty' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, reason: 'invalid' };
  }
}

/** The JSON body or an `invalid_request_error`. */
export function readJson(ctx: RequestContext): unknown {
  const parsed = ctx.body();
  if (parsed.ok) return parsed.value;
  throw invalidField(
    'body',
    parsed.reason === 'empty'
      ? 'The request body is empty; JSON was expected'
      : 'The request body is not valid JSON',
  );
}

export function contentType(request: Request): string {
  return (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * Whether a JSON endpoint reads the body as JSON: `application/json`, a `+json` type, or no
 * Content-Type at all. The one rule for the endpoints and for the facts fault rules match on.
 */
export function isJsonContent(request: Request): boolean {
  const type = contentType(request);
  return type === '' || type === 'application/json' || type.endsWith('+json');
}

export function requireJsonContent(ctx: RequestContext): void {
  if (!isJsonContent(ctx.request)) {
    const type = contentType(ctx.request);
    throw invalidField(
      'content-type',
      `Content-Type '${type}' is not accepted; send application/json`,
    );
  }
}
