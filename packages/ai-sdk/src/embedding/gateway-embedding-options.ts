// docs/gateway-protocol.md §6 (the embedding request's `input_type` and `dimensions`).
import { z } from 'zod/v4';
import { strictInfergateOptionsParser } from '../shared/strict-infergate-options';

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

/** `providerOptions.infergate` of an embedding call, checked (a wrong value names the field, an unknown key the closest one). */
export const parseGatewayEmbeddingOptions = strictInfergateOptionsParser(
  gatewayEmbeddingOptionsSchema,
  {
    inputType: '"document" or "query"',
    dimensions: 'a positive integer',
  },
);
