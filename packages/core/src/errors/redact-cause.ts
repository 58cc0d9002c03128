// docs/gateway-protocol.md §10.4 (client codes: the cause a client-side failure keeps).
import { redactValue } from './redact-secret';

type Redact = (text: string) => string;

/** Past this many nested causes or walked values a cause is judged unsafe and rebuilt. */
const MAX_DEPTH = 8;
const MAX_NODES = 256;

/** The error classes a rebuilt cause keeps, so `cause instanceof TypeError` still holds. */
const BUILT_IN: Record<string, ErrorConstructor> = {
  TypeError,
  RangeError,
  SyntaxError,
  ReferenceError,
  EvalError,
  URIError,
};

/**
 * A cause that is not a GatewayError, safe to keep: returned as it is when no text it holds (own
 * properties, hidden ones too, at any depth) carries the key, so an abort reason stays the caller's
 * own object; otherwise rebuilt. A fetch wrapper may hide the key in `cause.cause` or in an extra
 * property (`options.headers`), which `util.inspect(…, { showHidden: true })` and `structuredClone`
 * show: the rebuilt chain is plain copies with only name, message, stack, code and cause, redacted.
 */
export function redactedCause(cause: unknown, redact: Redact): unknown {
  if (typeof cause === 'string') return redact(cause);
  if (typeof cause !== 'object' || cause === null) return cause;
  if (!holdsKey(cause, redact)) return cause;
  return cause instanceof Error
    ? errorCopy(cause, redact, 0, new WeakSet())
    : redactValue(cause, redact);
}

/** True when some string reachable from `root` changes under `redact`, or the walk is too big to tell. */
function holdsKey(root: object, redact: Redact): boolean {
  const seen = new WeakSet<object>();
  const pending: unknown[] = [root];
  let nodes = 0;
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node === 'string') {
      if (redact(node) !== node) return true;
      continue;
    }
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    if (++nodes > MAX_NODES) return true;
    seen.add(node);
    for (const name of Reflect.ownKeys(node)) {
      if (typeof name === 'string' && redact(name) !== name) return true;
      // A getter is not run: inspect shows it as `[Getter]` and structuredClone skips it.
      const described = Object.getOwnPropertyDescriptor(node, name);
      if (described !== undefined && 'value' in described) pending.push(described.value);
    }
  }
  return false;
}

function errorCopy(error: Error, redact: Redact, depth: number, seen: WeakSet<object>): Error {
  seen.add(error);
  const name = typeof error.name === 'string' ? redact(error.name) : 'Error';
  const message = typeof error.message === 'string' ? redact(error.message) : '';
  const builtIn = Object.hasOwn(BUILT_IN, error.name) ? BUILT_IN[error.name] : undefined;
  const Kind = builtIn !== undefined && error instanceof builtIn ? builtIn : Error;
  const copy = new Kind(message) as Error & { code?: string | number };
  if (copy.name !== name) copy.name = name;
  copy.stack = typeof error.stack === 'string' ? redact(error.stack) : `${name}: ${message}`;
  const code: unknown = (error as { code?: unknown }).code;
  if (typeof code === 'string') copy.code = redact(code);
  else if (typeof code === 'number') copy.code = code;
  const inner = innerCause(error.cause, redact, depth, seen);
  if (inner !== undefined) copy.cause = inner;
  return copy;
}

/** A rebuilt cause's own cause: an Error copied again, a string redacted, anything else dropped. */
function innerCause(cause: unknown, redact: Redact, depth: number, seen: WeakSet<object>): unknown {
  if (typeof cause === 'string') return redact(cause);
  if (!(cause instanceof Error) || seen.has(cause) || depth + 1 >= MAX_DEPTH) return undefined;
  return errorCopy(cause, redact, depth + 1, seen);
}
