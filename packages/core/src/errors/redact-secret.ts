// docs/gateway-protocol.md §2.3 (the key goes in `authorization` only), §10.3 (raw bodies kept
// redacted).
/**
 * Redaction of the API key from text that leaves the client. The key is recognised raw, JSON-escaped
 * (`\/`, `\u002b`, any character as `\uXXXX`), URL-encoded (`%2B`, either hex case) and in base64
 * (standard and URL-safe, at any of the three byte alignments), so an echo the gateway escaped or
 * encoded is caught as well as a literal one. JSON text is also redacted after decoding.
 */

const REDACTED = '[redacted]';
/** Shorter secrets are not redacted: they would match ordinary text. */
const MIN_SECRET_LENGTH = 4;
/** Secrets of live clients (a process holds few keys; the cap only guards against misuse). */
const MAX_REGISTERED = 256;

/**
 * Kept on globalThis so that every copy of core in a realm (ESM and CJS builds, the main entry and
 * `@infergate/core/internal` in CJS) redacts the keys of every client.
 */
const REGISTRY = Symbol.for('@infergate/core.secrets');
interface SecretRegistry {
  registered: Set<string>;
  patterns: Map<string, RegExp>;
}
function secretRegistry(): SecretRegistry {
  const holder = globalThis as unknown as Record<symbol, SecretRegistry | undefined>;
  const existing = holder[REGISTRY];
  if (existing) return existing;
  const created: SecretRegistry = { registered: new Set(), patterns: new Map() };
  Object.defineProperty(globalThis, REGISTRY, { value: created, enumerable: false });
  return created;
}
const { registered, patterns } = secretRegistry();

/**
 * Registers a secret that every GatewayError built afterwards redacts from its message, body,
 * data, headers and cause (the stream decoder and validators never see the key).
 */
export function registerSecret(secret: string | undefined): void {
  if (secret === undefined || secret.length < MIN_SECRET_LENGTH || registered.has(secret)) return;
  if (registered.size >= MAX_REGISTERED) {
    const oldest = registered.values().next().value as string;
    registered.delete(oldest);
    patterns.delete(oldest);
  }
  registered.add(secret);
}

/** The registered secrets (for GatewayError). */
export function registeredSecrets(): Iterable<string> {
  return registered;
}

/** Replaces `secret` in `text` in every recognised form. */
export function redactSecret(text: string, secret: string | undefined): string {
  if (!secret || secret.length < MIN_SECRET_LENGTH || text.length < MIN_SECRET_LENGTH) return text;
  let out = text.includes(secret) ? text.split(secret).join(REDACTED) : text;
  // Fast path: none of the encodings' marks and no base64 of the key: nothing more to find.
  if (out.includes('\\') || out.includes('%')) out = out.replace(patternFor(secret), REDACTED);
  for (const form of base64Forms(secret)) {
    if (out.includes(form)) out = out.split(form).join(REDACTED);
  }
  return out;
}

/** Replaces every registered secret (and `extra`) in `text`. */
export function redactAll(text: string, extra?: string): string {
  let out = extra === undefined ? text : redactSecret(text, extra);
  for (const secret of registered) out = redactSecret(out, secret);
  return out;
}

/** A deep copy of a JSON-like value with every string redacted (depth-limited, cycle-safe). */
export function redactValue(value: unknown, redactText: (text: string) => string): unknown {
  const seen = new WeakSet<object>();
  const walk = (node: unknown, depth: number): unknown => {
    if (typeof node === 'string') return redactText(node);
    if (typeof node !== 'object' || node === null) return node;
    if (depth > 64 || seen.has(node)) return '[omitted]';
    seen.add(node);
    if (Array.isArray(node)) return node.map((item) => walk(item, depth + 1));
    const copy: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(node)) copy[redactText(name)] = walk(item, depth + 1);
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
  let pattern = patterns.get(secret);
  if (pattern) return pattern;
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
  pattern = new RegExp(source, 'g');
  patterns.set(secret, pattern);
  return pattern;
}

const base64Cache = new Map<string, string[]>();

/**
 * The key's base64 forms that do not depend on its neighbours: for each of the three byte
 * alignments, the characters fully determined by the key's own bytes (standard and URL-safe).
 */
function base64Forms(secret: string): string[] {
  const cached = base64Cache.get(secret);
  if (cached) return cached;
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
    if (core.length >= 8) {
      forms.add(core);
      forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  const list = [...forms];
  if (base64Cache.size > MAX_REGISTERED) base64Cache.clear();
  base64Cache.set(secret, list);
  return list;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
