// docs/gateway-protocol.md §2.3 (the key goes into no header but `authorization`, and into no
// message): what a gateway answer echoed of the key leaves this server redacted.
import { redactKey, redactValue } from '@infergate/core/internal';

/** `value` with every string in it (keys too) redacted of the key, each on its own (core's walk). */
export function redactStrings(value: unknown): unknown {
  return redactValue(value, (text) => redactKey(text));
}
