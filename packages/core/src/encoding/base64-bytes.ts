// docs/gateway-protocol.md §8, §9 (base64 images and audio), §4.1 (media parts).
// Bytes to and from base64 alone, without the checks of base64.ts: the chat path's media parts
// use them, and loading those checks at start would cost a chat-only app ~0.5 KB (bench B5).

/** Decodes already-checked base64. */
export function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Standard padded base64 of bytes. */
export function encodeBase64(bytes: Uint8Array): string {
  const CHUNK = 0x8000 - (0x8000 % 3); // a multiple of 3 so chunks concatenate without padding
  let out = '';
  for (let i = 0; i < bytes.length; i += CHUNK) {
    const slice = bytes.subarray(i, i + CHUNK);
    let binary = '';
    for (let j = 0; j < slice.length; j++) binary += String.fromCharCode(slice[j]!);
    out += btoa(binary);
  }
  return out;
}
