// docs/gateway-protocol.md §2.3 (the key goes in `authorization` only), §10.3 (raw bodies kept
// redacted).
/**
 * Redaction of the API key from text that leaves the client. The key is recognised raw, JSON-escaped
 * (`\/`, `\u002b`, any character as `\uXXXX`), URL-encoded (`%2B`, either hex case) and in base64
 * (standard and URL-safe, at any of the three byte alignments), so an echo the gateway escaped or
 * encoded is caught as well as a literal one. JSON text is also redacted after decoding.
 */

const REDACTED = '[redacted]';
/**
 * What marks a cut in text that leaves the client (`clip`, a body cut at its byte bound): text cut
 * before it was redacted, or cut where it was never seen whole, may end in a part of the key.
 */
export const CUT_MARK = '…';
/**
 * A start of the key this long or longer, right before a cut mark, is redacted as the key is
 * (shorter, it could be ordinary text; a key this short or shorter is only ever redacted whole).
 */
const MIN_CUT_PREFIX = 8;
/** Shorter secrets are not redacted: they would match ordinary text. */
const MIN_SECRET_LENGTH = 4;
/**
 * A base64 form is redacted from this many characters (36 bits: one chance match in ~7·10^10
 * positions of unrelated base64, such as an image a tool result carries): every alignment of a key
 * of 5 bytes or more. A 4-byte key's forms (4–5 characters) would match that often enough to
 * corrupt such data unseen, so they are left.
 */
const MIN_BASE64_FORM = 6;
/** Where the runtime has no WeakRef: at most this many redactors are kept (oldest dropped). */
const MAX_STRONG = 256;

/**
 * Redacts one secret. The secret, its pattern and its base64 forms live only in this closure: no
 * property, map key or cache holds them, so nothing that can reach a `Redactor` (global state
 * included) can read the secret back.
 */
interface Redactor {
  redact(text: string): string;
  /** Whether this redactor is for `secret` (to share one between clients of the same key). */
  holds(secret: string): boolean;
}

function createRedactor(secret: string): Redactor {
  let pattern: RegExp | undefined;
  let forms: string[] | undefined;
  return Object.freeze({
    redact: (text: string) =>
      redactWith(
        text,
        secret,
        () => (pattern ??= patternFor(secret)),
        () => (forms ??= base64Forms(secret)),
      ),
    holds: (other: string) => other === secret,
  });
}

/**
 * The redactors of the live clients, shared by every copy of core in a realm (ESM and CJS builds,
 * the main entry and `@infergate/core/internal` in CJS) so that clients of one key share one
 * redactor and `redactKey` finds every live key. It holds them weakly: each lives as long as a
 * client that registered its secret, and is dropped from here once collected. No raw secret is
 * reachable from it (see `Redactor`): `byHash` files them under a 32-bit hash of their secret, so
 * finding a key's redactor costs the same with one live key or a million (a many-tenant server
 * makes a client per tenant).
 */
const REGISTRY = Symbol.for('@infergate/core.redactors');
type RedactorRef = { deref(): Redactor | undefined };
interface RedactorRegistry {
  live: Set<RedactorRef>;
  byHash: Map<number, Set<RedactorRef>>;
  forget: { register(target: object, held: unknown): void };
}
function redactorRegistry(): RedactorRegistry {
  const holder = globalThis as unknown as Record<symbol, RedactorRegistry | undefined>;
  const existing = holder[REGISTRY];
  if (existing) {
    // Made by an older copy of core in this realm: the index is added beside its set.
    existing.byHash ??= new Map();
    return existing;
  }
  const live: RedactorRegistry['live'] = new Set();
  const byHash: RedactorRegistry['byHash'] = new Map();
  const created: RedactorRegistry = {
    live,
    byHash,
    forget:
      typeof FinalizationRegistry === 'function'
        ? new FinalizationRegistry<{ ref: RedactorRef; hash: number }>(({ ref, hash }) =>
            unlist(created, ref, hash),
          )
        : { register: () => {} },
  };
  Object.defineProperty(globalThis, REGISTRY, { value: created, enumerable: false });
  return created;
}
const registry = redactorRegistry();

function unlist(from: RedactorRegistry, ref: RedactorRef, hash: number): void {
  from.live.delete(ref);
  const bucket = from.byHash.get(hash);
  bucket?.delete(ref);
  if (bucket?.size === 0) from.byHash.delete(hash);
}

/** Each owner (a client's transport) keeps its redactor alive; never enumerable, never global. */
const owned = new WeakMap<object, Redactor>();

/** A 32-bit hash of a secret: where its redactor is filed (the secret itself is never kept). */
function hashOf(secret: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < secret.length; i++) hash = Math.imul(hash ^ secret.charCodeAt(i), 16777619);
  return hash >>> 0;
}

/** The live redactor for `secret`, if a live client registered it (one hash look-up). */
function liveRedactor(secret: string): Redactor | undefined {
  const bucket = registry.byHash.get(hashOf(secret));
  if (bucket === undefined) return undefined;
  for (const ref of bucket) {
    const redactor = ref.deref();
    if (redactor?.holds(secret)) return redactor;
  }
  return undefined;
}

/**
 * Registers the secret of `owner` (a client's transport), in constant time whatever the number of
 * live clients: the errors of the owner's calls are redacted with it (`redactOwnKey`), and
 * `redactKey` finds it while the owner is alive. Once the owner is collected, nothing keeps it.
 */
export function registerSecret(secret: string | undefined, owner: object): void {
  if (secret === undefined || secret.length < MIN_SECRET_LENGTH) return;
  let redactor = liveRedactor(secret);
  if (!redactor) {
    redactor = createRedactor(secret);
    const hash = hashOf(secret);
    let ref: RedactorRef;
    if (typeof WeakRef === 'function') {
      ref = new WeakRef(redactor);
      registry.forget.register(redactor, { ref, hash });
    } else {
      // No weak references in this runtime: kept strongly, the oldest dropped past the cap.
      if (registry.live.size >= MAX_STRONG) {
        const oldest = registry.live.values().next().value as
          | (RedactorRef & { hash?: number })
          | undefined;
        if (oldest) unlist(registry, oldest, oldest.hash ?? 0);
      }
      const strong = redactor;
      ref = { deref: () => strong, hash } as RedactorRef;
    }
    registry.live.add(ref);
    let bucket = registry.byHash.get(hash);
    if (!bucket) {
      bucket = new Set();
      registry.byHash.set(hash, bucket);
    }
    bucket.add(ref);
  }
  owned.set(owner, redactor);
}

/**
 * The function that redacts the secret `owner` registered, if it registered one: what the errors
 * of its calls are redacted with.
 */
export function ownRedaction(owner: object): ((text: string) => string) | undefined {
  return owned.get(owner)?.redact;
}

/** Replaces `secret` in `text` in every recognised form. */
export function redactSecret(text: string, secret: string | undefined): string {
  if (!secret || secret.length < MIN_SECRET_LENGTH || text.length < MIN_SECRET_LENGTH) return text;
  const registered = liveRedactor(secret);
  if (registered) return registered.redact(text);
  return redactWith(
    text,
    secret,
    () => patternFor(secret),
    () => base64Forms(secret),
  );
}

function redactWith(
  text: string,
  secret: string,
  pattern: () => RegExp,
  forms: () => string[],
): string {
  if (text.length < MIN_SECRET_LENGTH) return text;
  let out = text.includes(secret) ? text.split(secret).join(REDACTED) : text;
  // Fast path: none of the encodings' marks and no base64 of the key: nothing more to find.
  if (out.includes('\\') || out.includes('%')) out = out.replace(pattern(), REDACTED);
  for (const form of forms()) {
    if (out.includes(form)) out = out.split(form).join(REDACTED);
  }
  // A key of MIN_CUT_PREFIX characters or fewer is only ever redacted whole.
  if (!out.includes(CUT_MARK) || secret.length <= MIN_CUT_PREFIX) return out;
  return redactCutStarts(out, cutForms(secret, forms()));
}

/**
 * The forms of `secret` whose start a cut can leave: raw, JSON-escaped (`\/`), URL-encoded (either
 * hex case) and its base64 forms. A start of an encoded form covers a cut through an escape (`%2…`).
 */
function cutForms(secret: string, base64: string[]): Set<string> {
  const encoded = encodeURIComponent(secret);
  const lowerHex = encoded.replace(/%../g, (byte) => byte.toLowerCase());
  return new Set([secret, secret.replace(/\//g, '\\/'), encoded, lowerHex, ...base64]);
}

/**
 * `text` with each start of one of `forms` that a cut mark ends (`…ig-SECRET-can…`) redacted: a cut
 * made before redaction, or through text never seen whole, may split the key where no whole form
 * is left.
 */
function redactCutStarts(text: string, forms: Iterable<string>): string {
  let out = text;
  for (const form of forms) {
    for (let at = out.indexOf(CUT_MARK); at !== -1; at = out.indexOf(CUT_MARK, at + 1)) {
      for (let length = Math.min(form.length - 1, at); length >= MIN_CUT_PREFIX; length--) {
        if (!out.endsWith(form.slice(0, length), at)) continue;
        out = `${out.slice(0, at - length)}${REDACTED}${out.slice(at)}`;
        at += REDACTED.length - length;
        break;
      }
    }
  }
  return out;
}

/**
 * Replaces `key` (when given; a key shorter than 4 characters is left, it would match ordinary
 * text, and so is a 4-byte key's base64, see MIN_BASE64_FORM) and the API key of every live
 * client in `text`, in every form recognised (raw, JSON-escaped, URL-encoded, base64). For text
 * that leaves the process outside an error (a log line, a tool's answer; an error is redacted of
 * its own client's key). Its cost grows with the number of live keys: a many-tenant server passes
 * the one `key` the text could hold instead.
 */
export function redactKey(text: string, key?: string): string {
  let out = key === undefined ? text : redactSecret(text, key);
  for (const ref of registry.live) {
    const redactor = ref.deref();
    if (redactor) out = redactor.redact(out);
  }
  return out;
}

/**
 * A 2xx answer's parsed body as a call hands it on: itself unless its `text` holds the key (a proxy
 * echoing it), then a copy with every string through `redact` (none: a client without a key). The
 * usual answer costs one scan.
 */
export function keptOutBody<T>(
  body: T,
  text: string,
  redact: ((text: string) => string) | undefined,
): T {
  if (redact === undefined || redact(text) === text) return body;
  return redactValue(body, redact, true) as T;
}

/**
 * A deep copy of a JSON-like value with every string (and property name) redacted; a property
 * named `__proto__` stays an own data property. By default depth-limited and each object copied
 * once (a second sight is "[omitted]"): safe for any value, a cause or an error's data. `json`:
 * a body that was sent as JSON (finite, so no depth limit; an object it holds twice, a schema two
 * tools share, copied both times); only a true cycle, an object inside itself, is "[omitted]".
 */
export function redactValue(
  value: unknown,
  redactText: (text: string) => string,
  json = false,
): unknown {
  // Not json: every object seen; json: the objects on the path to the current one.
  const seen = new WeakSet<object>();
  const walk = (node: unknown, depth: number): unknown => {
    if (typeof node === 'string') return redactText(node);
    if (typeof node !== 'object' || node === null) return node;
    if ((!json && depth > 64) || seen.has(node)) return '[omitted]';
    seen.add(node);
    let copy: unknown;
    if (Array.isArray(node)) copy = node.map((item) => walk(item, depth + 1));
    else {
      const fields: Record<string, unknown> = {};
      for (const [name, item] of Object.entries(node)) {
        Object.defineProperty(fields, redactText(name), {
          value: walk(item, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      copy = fields;
    }
    if (json) seen.delete(node);
    return copy;
  };
  return walk(value, 0);
}

function hexClass(code: number, width: number): string {
  let out = '';
  for (const digit of code.toString(16).padStart(width, '0')) {
    out += /[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit;
  }
  return out;
}

/** Per character: itself, `\uXXXX`, `\/` for `/`, or its URL encoding (`%XX` per UTF-8 byte). */
function patternFor(secret: string): RegExp {
  let source = '';
  for (const char of secret) {
    const code = char.codePointAt(0) ?? 0;
    const options = [char.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')];
    if (code <= 0xffff) options.push(`\\\\u${hexClass(code, 4)}`);
    if (char === '/') options.push('\\\\/');
    const bytes = new TextEncoder().encode(char);
    options.push(Array.from(bytes, (byte) => `%${hexClass(byte, 2)}`).join(''));
    if (char === ' ') options.push('\\+');
    source += `(?:${options.join('|')})`;
  }
  return new RegExp(source, 'g');
}

/**
 * The key's base64 forms that do not depend on its neighbours: for each of the three byte
 * alignments, the characters fully determined by the key's own bytes (standard and URL-safe).
 */
function base64Forms(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  const forms = new Set<string>();
  for (let offset = 0; offset < 3; offset++) {
    const padded = new Uint8Array(offset + bytes.length);
    padded.set(bytes, offset);
    const encoded = toBase64(padded);
    // Characters before `lead` mix in the neighbour's bits; after `stable`, the next bytes'.
    const lead = offset === 0 ? 0 : offset === 1 ? 2 : 3;
    const stable = Math.floor(((offset + bytes.length) * 8) / 6);
    const core = encoded.slice(lead, stable);
    if (core.length >= MIN_BASE64_FORM) {
      forms.add(core);
      forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  return [...forms];
}

/** (Its own: errors/ sits below encoding/ in the order core's folders import.) */
function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
