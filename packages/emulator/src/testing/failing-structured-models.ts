// docs/gateway-protocol.md §4.8 (structured output on every model: every answer checked).
import type { ScenarioInput } from '../scenario';

/**
 * A scenario with two streaming `json_schema` models whose every structured answer fails its
 * check: `x/off` answers JSON off the schema, `x/cut` answers text that is not JSON. The case the
 * adapters' tests of a failed last answer share (route, all-failed message, typed error).
 */
export function withFailingStructuredModels(): ScenarioInput {
  return {
    models: {
      'x/off': {
        capabilities: ['chat', 'streaming', 'json_schema'],
        verification: 'provider_claimed',
        jsonAnswers: { offSchemaShare: 1 },
      },
      'x/cut': {
        capabilities: ['chat', 'streaming', 'json_schema'],
        jsonAnswers: { invalidShare: 1 },
      },
    },
  };
}

/**
 * A scenario with two JSON-mode models (`json_object`, no schema): `x/cut` answers every JSON
 * request cut short (not JSON), `x/json` keeps its word. The case the adapters' tests of a JSON-mode
 * answer failing its hop share (`fallbackModels: ['x/json']` moves on).
 */
export function withJsonModeModels(): ScenarioInput {
  return {
    models: {
      'x/cut': { capabilities: ['chat', 'json_object'], jsonAnswers: { invalidShare: 1 } },
      'x/json': { capabilities: ['chat', 'json_object'] },
    },
  };
}
