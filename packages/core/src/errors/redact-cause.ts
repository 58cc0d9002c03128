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
 * What a Map, Set, Headers, Request, Response, URL or URLSearchParams holds is looked at too (inspect
 * prints their entries): a fetch wrapper's `options.headers = new Headers(init.headers)`.
 */
export function redactedCause(cause: unknown, redact: Redact): unknown {
  if (typeof cause === 'string') return redact(cause);
  if (typeof cause !== 'object' || cause === null) return cause;
  try {
    if (!holdsKey(cause, redact)) return cause;
    return cause instanceof Error
      ? errorCopy(cause, redact, 0, new WeakSet())
      : redactValue(cause, redact);
  } catch {
    // An object that throws when read (a Proxy's trap, a getter's error): dropped, not kept unread.
    return undefined;
  }
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
    const inner = innerValues(node);
    if (inner === undefined || nodes + inner.length > MAX_NODES) return true;
    pending.push(...inner);
    for (const name of Reflect.ownKeys(node)) {
      if (typeof name === 'string' && redact(name) !== name) return true;
      // A getter is not run: inspect shows it as `[Getter]` and structuredClone skips it.
      const described = Object.getOwnPropertyDescriptor(node, name);
      if (described !== undefined && 'value' in described) pending.push(described.value);
    }
  }
  return false;
}

/**
 * Where the built-in classes that keep their contents in internal slots hold what inspect and
 * console.error print (a Map's or Headers' entries, a Request's headers and URL): each read is the
 * prototype's own method or getter, which refuses any other object (a brand check), so no code of
 * the object's runs.
 */
const HIDDEN: readonly [unknown, string][] = [
  [Map, 'entries'],
  [Set, 'entries'],
  [globalThis.Headers, 'entries'],
  [globalThis.URL, 'href'],
  [globalThis.URLSearchParams, 'toString'],
  [globalThis.Request, 'headers'],
  [globalThis.Request, 'url'],
  [globalThis.Response, 'headers'],
  [globalThis.Response, 'url'],
];

/**
 * The values a built-in class holds out of sight of own properties (entries flattened), `[]` for
 * any other object, or undefined when there are more than a walk looks at.
 */
function innerValues(node: object): unknown[] | undefined {
  const values: unknown[] = [];
  for (const [Kind, name] of HIDDEN) {
    let held: unknown;
    try {
      const { prototype } = Kind as { prototype: object };
      const described = Object.getOwnPropertyDescriptor(prototype, name);
      const read = (described?.get ?? described?.value) as (this: object) => unknown;
      held = read.call(node);
    } catch {
      continue; // Not of this class (or no such class here).
    }
    if (typeof held !== 'object' || held === null) values.push(held);
    else {
      for (const item of held as Iterable<unknown>) {
        if (values.length > MAX_NODES) return undefined;
        values.push(...(Array.isArray(item) ? item : [item]));
      }
    }
  }
  return values;
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
