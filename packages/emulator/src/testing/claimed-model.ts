// docs/gateway-protocol.md §3.1 (a model's `verification`), §4.8 (structured output on every model).
import type { ScenarioInput } from '../scenario';

/** The model of `withClaimedModel()`. */
export const CLAIMED_MODEL = 'community/claimed';

/**
 * A scenario with one model more: `CLAIMED_MODEL`, whose `json_schema` is only its provider's word
 * (`provider_claimed`) and whose every JSON answer breaks the schema. The case the adapters'
 * structured-output tests share: core must check its answer, refuse it, and walk on.
 */
export function withClaimedModel(): ScenarioInput {
  return {
    models: {
      [CLAIMED_MODEL]: {
        owned_by: 'service-community',
        capabilities: ['chat', 'streaming', 'json_schema'],
        online: true,
        verification: 'provider_claimed',
        jsonAnswers: { offSchemaShare: 1 },
      },
    },
  };
}
