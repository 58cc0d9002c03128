import { LIMITS } from '@infergate/core';

export { LANGUAGE_CODE } from '@infergate/core';

/** The gateway's limits (docs/gateway-protocol.md §11), as the tools describe them to a model. */
export const TRANSLATION_MAX_BYTES = LIMITS.translationMaxInputBytes;
/** Longest base64 text whose decoded size can be 23 MiB. */
export const MEDIA_MAX_BASE64_CHARS = Math.ceil(LIMITS.ocrMaxImageBytes / 3) * 4;
