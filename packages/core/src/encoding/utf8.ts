// docs/gateway-protocol.md §11 (limits counted in UTF-8 bytes).
/** UTF-8 byte length of a string without encoding it (lone surrogates count as 3, like TextEncoder). */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    } else bytes += 3;
  }
  return bytes;
}
