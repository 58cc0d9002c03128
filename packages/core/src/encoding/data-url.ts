// docs/gateway-protocol.md §4.1 (media given as data URLs), §8, §9 (base64 inputs).
// A module of its own: chat's media parts read data URLs on the chat path, and the services'
// base64 checks stay out of a chat-only bundle.

/** `data:<type>;base64,`: the type is what precedes `;base64` (parameters kept: `text/plain;charset=utf-8`). */
const DATA_URL = /^data:([^,]*);base64,(.*)/is;

/**
 * A base64 data URL (`data:<type>;base64,<data>`) read: its type (empty when it names none) and
 * its base64; undefined for any other text. The one rule for a data URL, for chat media and
 * service inputs alike.
 */
export function readDataUrl(text: string): { mediaType: string; data: string } | undefined {
  const match = DATA_URL.exec(text);
  return match ? { mediaType: match[1]!, data: match[2]! } : undefined;
}
