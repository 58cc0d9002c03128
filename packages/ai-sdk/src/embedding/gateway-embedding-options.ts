// docs/gateway-protocol.md §6 (the embedding request's `input_type` and `dimensions`).
import { z } from 'zod/v4';
import { type AllowedValues, parseInfergateOptions } from '../shared/parse-infergate-options';

/** `providerOptions.infergate` of `embed` / `embedMany`. */
const gatewayEmbeddingOptionsSchema = z.object({
  /** Multilingual engine only: `document` (default, for indexing) or `query` (for searching). */
  inputType: z.enum(['document', 'query']).optional(),
  /**
   * Output dimension, sent as `dimensions` only when set. Unverified against the live service:
   * the spec does not show the field that picks the multilingual engine's dimension.
   */
  dimensions: z.number().int().positive().optional(),
});
export type GatewayEmbeddingOptions = z.infer<typeof gatewayEmbeddingOptionsSchema>;

const EMBEDDING_OPTIONS_ALLOWED: AllowedValues<GatewayEmbeddingOptions> = {
  inputType: '"document" or "query"',
  dimensions: 'a positive integer',
};

/** `providerOptions.infergate` of an embedding call, checked (a wrong value names the field). */
export function parseGatewayEmbeddingOptions(
  providerOptions: Record<string, unknown> | undefined,
): GatewayEmbeddingOptions | undefined {
  return parseInfergateOptions(
    providerOptions,
    gatewayEmbeddingOptionsSchema,
    EMBEDDING_OPTIONS_ALLOWED,
  );
}
