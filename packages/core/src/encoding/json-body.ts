// docs/gateway-protocol.md §4.1, §6–§9 (JSON request bodies), §10.4 (`invalid_request_error`: a
// refusal before sending, naming the field).
import { GatewayError } from '../errors/errors';
import { clip } from '../errors/escape-control';

/**
 * The JSON text of a request body. `JSON.stringify` throws a raw `TypeError` on a circular
 * reference or a BigInt (and whatever a `toJSON` or a getter throws); only then is the value
 * walked to find the field, so a body that serialises costs one `JSON.stringify`. The refusal is
 * `invalid_request_error` with `field` the path of the offending value (`messages[0].content`,
 * `metadata.self`), before anything is sent.
 */
export function jsonBody(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    throw unserialisable(value, error);
  }
}

/** A value to look at, or (`exit`) the end of an object's fields. */
type Frame =
  | { node: unknown; path: string; exit?: false }
  | { node: object; path: string; exit: true };

/** The refusal for a value JSON.stringify threw on, naming the first offending field found. */
function unserialisable(root: unknown, thrown: unknown): GatewayError {
  const found = findUnsendable(root, '', { maxDepth: MAX_DEPTH });
  const field = found?.path || 'request';
  const problem = found?.problem ?? `cannot be sent as JSON (${describe(thrown)})`;
  return new GatewayError({
    code: 'invalid_request_error',
    message: `${field}: ${problem}; nothing was sent`,
    field,
    cause: thrown,
  });
}

interface UnsendableCheck {
  /** Objects nested deeper than this are refused. */
  maxDepth: number;
  /** Refuse NaN and ±Infinity, which JSON.stringify sends as `null`. */
  finiteNumbers?: boolean;
}

/**
 * The first value under `root` (at `rootPath`) that JSON cannot carry faithfully, with its path
 * and why: a cycle, a BigInt, a `toJSON` or getter that throws, nesting deeper than `maxDepth`,
 * and with `finiteNumbers` NaN and ±Infinity. Walks as JSON.stringify does (`toJSON`, own
 * enumerable keys), depth-first with an explicit stack, so a value too deep for recursion is
 * walked too; only the current branch counts as a cycle (a shared sub-object is fine).
 */
export function findUnsendable(
  root: unknown,
  rootPath: string,
  check: UnsendableCheck,
): { path: string; problem: string } | undefined {
  /** The objects on the current branch, with their paths (a cycle points back into them). */
  const onPath = new Map<object, string>();
  const stack: Frame[] = [{ node: root, path: rootPath }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.exit) {
      onPath.delete(frame.node);
      continue;
    }
    const { path } = frame;
    let node = frame.node;
    if (hasToJSON(node)) {
      try {
        node = node.toJSON(lastKey(path));
      } catch (error) {
        return { path, problem: `its toJSON() threw (${describe(error)})` };
      }
    }
    const scalar = scalarProblem(node, check);
    if (scalar !== undefined) return { path, problem: scalar };
    if (typeof node !== 'object' || node === null) continue;
    const back = onPath.get(node);
    if (back !== undefined) {
      return {
        path,
        problem: `is a circular reference (back to ${back === '' ? 'the request itself' : back}), which JSON cannot carry`,
      };
    }
    if (onPath.size >= check.maxDepth) {
      return { path, problem: `is nested more than ${check.maxDepth} levels deep` };
    }
    const children = childrenOf(node, path);
    if (!Array.isArray(children)) return children;
    onPath.set(node, path);
    stack.push({ node, path, exit: true });
    // Reversed, so that the first field is looked at first.
    for (let i = children.length - 1; i >= 0; i--) {
      const [childPath, child] = children[i]!;
      stack.push({ node: child, path: childPath });
    }
  }
  return undefined;
}

/** Why JSON cannot carry a number or BigInt faithfully, if it cannot. */
function scalarProblem(node: unknown, check: UnsendableCheck): string | undefined {
  if (typeof node === 'bigint') {
    return `is a BigInt (${node}n), which JSON cannot carry: send a number or a string`;
  }
  if (check.finiteNumbers && typeof node === 'number' && !Number.isFinite(node)) {
    return `is ${node}, which JSON has no number for (it would be sent as null)`;
  }
  return undefined;
}

/** An object's children as JSON.stringify walks them (own enumerable keys), or a getter's throw. */
function childrenOf(
  node: object,
  path: string,
): [string, unknown][] | { path: string; problem: string } {
  const children: [string, unknown][] = [];
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) children.push([`${path}[${i}]`, node[i]]);
    return children;
  }
  for (const key of Object.keys(node)) {
    const childPath = path === '' ? key : `${path}.${key}`;
    try {
      children.push([childPath, (node as Record<string, unknown>)[key]]);
    } catch (error) {
      return { path: childPath, problem: `could not be read (${describe(error)})` };
    }
  }
  return children;
}

/** Deeper than this, JSON.stringify's own recursion would overflow the stack anyway. */
const MAX_DEPTH = 5_000;

function hasToJSON(value: unknown): value is { toJSON(key: string): unknown } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  );
}

function lastKey(path: string): string {
  const match = /(?:\.([^.[\]]+)|\[(\d+)\])$/.exec(path);
  return match?.[1] ?? match?.[2] ?? path;
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * A value as JSON text, for a refusal's message: never throws (a BigInt shows as `5n`, a function
 * as `a function`, never its source; a value JSON cannot carry by its type), so describing a bad
 * field cannot fail with a raw TypeError.
 */
export function quoteValue(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'function') return 'a function';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Array.isArray(value)
      ? 'an array JSON cannot carry'
      : `an ${typeof value} JSON cannot carry`;
  }
}

/**
 * A value for a refusal's message, by kind: a string quoted (cut at 40 characters), a number or
 * boolean with its value, an object, array or function by kind only (it may hold anything).
 */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing (undefined)';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `"${clip(value, 40)}"`;
  if (typeof value === 'object') return 'an object';
  return typeof value === 'function' ? 'a function' : `${typeof value} ${String(value)}`;
}
