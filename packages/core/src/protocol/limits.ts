// docs/gateway-protocol.md §11 (the gateway's limits).
/** The gateway's limits, checked before anything is sent. */
export const LIMITS = {
  chatMinMessages: 1,
  translationMaxInputBytes: 4096,
  embeddingsMaxInputs: 64,
  embeddingsMaxTotalBytes: 65_536,
  /** "32 KB" per text for the multilingual engine, read as 32 × 1024 bytes. */
  multilingualMaxTextBytes: 32 * 1024,
  multilingualDimensions: [128, 256, 512, 768] as readonly number[],
  /** The English-oriented engine gives 384 dimensions only (docs/gateway-protocol.md §11). */
  englishDimensions: [384] as readonly number[],
  ocrMaxImageBytes: 23 * 1024 * 1024,
  audioMaxBytes: 23 * 1024 * 1024,
  concurrentRequestsPerKey: 4,
  requestDurationMs: 300_000,
  /** Nesting depth of a JSON schema (tools' `parameters`, `response_format`): ours, not the gateway's. */
  schemaMaxDepth: 64,
} as const;

export const LANGUAGE_CODE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
