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

type Reader = (node: object) => Iterable<unknown> | string | undefined;

/** `Kind.prototype[name]` as a function of its receiver (a method, or a getter's `get`). */
function member(Kind: unknown, name: string): ((this: object) => unknown) | undefined {
  if (typeof Kind !== 'function') return undefined;
  const described = Object.getOwnPropertyDescriptor(Kind.prototype, name);
  const read = described?.get ?? described?.value;
  return typeof read === 'function' ? read : undefined;
}

/**
 * What the built-in classes that keep their contents in internal slots hold, where inspect and
 * console.error print it (a Map's or Headers' entries, a Request's headers and URL): each read is
 * the prototype's own method, which refuses any other object (a brand check), so no code of the
 * object's runs. Resolved once, on the first cause walked.
 */
let readers: Reader[] | undefined;
function builtInReaders(): Reader[] {
  const entries = (Kind: unknown): Reader[] => {
    const read = member(Kind, 'entries');
    return read ? [(node) => read.call(node) as Iterable<unknown>] : [];
  };
  const text = (Kind: unknown, name: string): Reader[] => {
    const read = member(Kind, name);
    return read ? [(node) => String(read.call(node))] : [];
  };
  return [
    ...entries(Map),
    ...entries(Set),
    ...entries(globalThis.Headers),
    ...text(globalThis.URL, 'href'),
    ...text(globalThis.URLSearchParams, 'toString'),
    ...[globalThis.Request, globalThis.Response].flatMap((Kind) => {
      const headers = member(Kind, 'headers');
      const url = member(Kind, 'url');
      return headers && url ? [(node: object) => [headers.call(node), url.call(node)]] : [];
    }),
  ];
}

/**
 * The values a built-in class holds out of sight of own properties (its entries flattened), `[]`
 * for any other object, or undefined when there are more than a walk can look at.
 */
function innerValues(node: object): unknown[] | undefined {
  readers ??= builtInReaders();
  for (const read of readers) {
    let held: Iterable<unknown> | string | undefined;
    try {
      held = read(node);
    } catch {
      continue; // Not of this class.
    }
    if (typeof held === 'string') return [held];
    const values: unknown[] = [];
    for (const item of held ?? []) {
      if (values.length > MAX_NODES) return undefined;
      if (Array.isArray(item)) values.push(...item);
      else values.push(item);
    }
    return values;
  }
  return [];
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
