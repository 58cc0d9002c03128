// docs/gateway-protocol.md §10.1 (the gateway's `message`), §10.3 (bodies that are not the
// gateway's): text from the gateway, and model ids from anyone, made safe to print.
import { CUT_MARK, redactSecret } from './redact-secret';

/**
 * Characters that can forge or hide a log line when a message is printed: C0 controls (a newline,
 * a carriage return, the escape that starts an ANSI sequence), DEL, C1 controls, the Unicode line
 * and paragraph separators, and the bidirectional overrides and isolates.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * `text` with every character that could forge a log line written as an escape (`\n`, `\r`, `\t`,
 * else `\uXXXX`), so a message quoting a model id or the gateway's words stays one line. Printable
 * text, non-Latin scripts included, is left as it is.
 */
export function escapeControl(text: string): string {
  return text.replace(
    UNSAFE,
    (char) => SHORT[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * `text` cut to its first `max` characters (one fewer rather than half an emoji), `…` marking the cut: a message never quotes a long value
 * whole. The mark is what redaction knows a cut by (a start of the key before it is redacted too,
 * redact-secret.ts), so a cut made before the key is redacted cannot leave a part of it.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  // Cut at a code point: half of a surrogate pair is ill-formed (strict JSON readers refuse it).
  const high = text.charCodeAt(max - 1);
  const end = high >= 0xd800 && high <= 0xdbff ? max - 1 : max;
  return `${text.slice(0, end)}${CUT_MARK}`;
}

/**
 * A name a refusal quotes (an unknown option, a header fetch cannot send), in backticks: `secret`
 * (the API key the options give) redacted before the cut, then cut to `max` and escaped. A pasted
 * key is a name too (`{ [apiKey]: true }`, an `Authorization: Bearer <key>` header name), and an
 * error made while creating a client belongs to no client that would redact it later.
 */
export function quotedName(name: string, max: number, secret: string | undefined): string {
  return `\`${escapeControl(clip(redactSecret(name, secret), max))}\``;
}
