// docs/gateway-protocol.md §3.1 (close matches, as `model_not_found` names them): scenario fields in messages.

/** Edit distance (Levenshtein) of two short names. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The known name closest to `wanted` (case ignored), or undefined when none is close: at most a
 * third of its letters wrong, and at least two allowed.
 */
export function closestName(wanted: string, known: readonly string[]): string | undefined {
  const lower = wanted.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(lower, name.toLowerCase());
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  return best !== undefined && best.distance <= limit ? best.name : undefined;
}

function suggestion(wanted: string, known: readonly string[]): string {
  const close = closestName(wanted, known);
  return close === undefined ? ` (known: ${known.join(', ')})` : ` — did you mean ${close}?`;
}

/** `unknown field <path> — did you mean <name>?`, or the known fields when none is close. */
export function unknownField(path: string, field: string, known: readonly string[]): string {
  return `unknown field ${path}${suggestion(field, known)}`;
}

/** `<path> "<value>" is unknown — did you mean <name>?`, or the known values when none is close. */
export function unknownValue(path: string, value: string, known: readonly string[]): string {
  return `${path} ${JSON.stringify(value)} is unknown${suggestion(value, known)}`;
}

/** `a.b` for a field of the object at `path` (the field alone at the top). */
export function fieldPath(path: string, field: string): string {
  return path === '' ? field : `${path}.${field}`;
}

/** `a["id"]` for an entry of a record keyed by ids, `a[0]` for an array's item. */
export function entryPath(path: string, key: string | number): string {
  return `${path}[${typeof key === 'number' ? key : JSON.stringify(key)}]`;
}

/**
 * Names that JavaScript objects give a meaning of their own: copied as data, `__proto__` would
 * change an object's prototype (every object's, once merged into `Object.prototype`), and a
 * lookup of `constructor` would find a function. A scenario may use none of them as a key.
 */
const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** The refusal of a key that names a prototype, or undefined for any other key. */
export function prototypeKeyProblem(path: string, key: string): string | undefined {
  return PROTOTYPE_KEYS.has(key)
    ? `${path} is refused: ${JSON.stringify(key)} names an object's prototype in JavaScript and is never taken as data`
    : undefined;
}

/**
 * Characters that can forge or hide a log line (C0 and C1 controls, DEL, the line and paragraph
 * separators, the bidirectional overrides and isolates): core's set (errors/escape-control.ts).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const SHORT_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `text` with each such character written as an escape (`\n`, else `\uXXXX`), as core writes it. */
function escapeControl(text: string): string {
  return text.replace(
    UNSAFE,
    (char) => SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * `unknown option \`<key>\` in <where> — did you mean \`<name>\`?`, or the known ones: core's wording
 * (a long key cut at 60 characters, `…` marking the cut, its control characters escaped), copied
 * since the emulator depends on nothing of ours; test/crosscheck's unknown-option-wording test
 * keeps the two the same.
 */
export function unknownOption(key: string, known: readonly string[], where: string): string {
  const close = closestName(key, known);
  const hint =
    close === undefined ? `; known: ${known.join(', ')}` : ` — did you mean \`${close}\`?`;
  const quoted = escapeControl(key.length > 60 ? `${key.slice(0, 60)}…` : key);
  return `unknown option \`${quoted}\` in ${where}${hint}`;
}

/**
 * Refuses an options object (`startEmulator`'s, `emulate`'s, a fixture's…) holding a key none of
 * `known` is, before anything happens, as core refuses its own: a `TypeError` naming the key and
 * the closest known one ("unknown option `hots` in startEmulator — did you mean `host`?").
 */
export function refuseUnknownOptions(given: object, known: readonly string[], where: string): void {
  for (const key of Object.keys(given)) {
    if (!known.includes(key)) throw new TypeError(unknownOption(key, known, where));
  }
}
