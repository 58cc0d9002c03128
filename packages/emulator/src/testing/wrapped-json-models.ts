// docs/gateway-protocol.md §4.8 (structured output on every model: the one fence rule).
import type { JsonAnswers, ScenarioInput } from '../scenario';

type Wrap = NonNullable<JsonAnswers['wrap']>;

/**
 * The models of `withWrappedJsonModels()`, by how each wraps its every JSON answer: `fence`, a
 * ```json code fence; `prose-fence`, the fence with a sentence before and after it;
 * `fence-inline`, the fence closed on the JSON's last line (`{…}```), a sentence after it;
 * `prose`, a sentence before and after the JSON, no fence.
 */
export const WRAPPED_JSON_MODELS = {
  fence: 'community/json-fenced',
  'prose-fence': 'community/json-prose-fenced',
  'fence-inline': 'community/json-inline-fenced',
  prose: 'community/json-prose',
} as const satisfies Record<Wrap, string>;

/**
 * A scenario with one streaming `json_schema` model more per way of wrapping JSON
 * (`WRAPPED_JSON_MODELS`). The case the adapters' structured-output tests share: core's fence rule
 * reads the fenced answers (whole and streamed); JSON in prose is refused.
 */
export function withWrappedJsonModels(): ScenarioInput {
  const wraps = Object.keys(WRAPPED_JSON_MODELS) as Wrap[];
  return {
    models: Object.fromEntries(
      wraps.map((wrap) => [
        WRAPPED_JSON_MODELS[wrap],
        {
          owned_by: 'service-community',
          capabilities: ['chat', 'streaming', 'json_schema'],
          online: true,
          jsonAnswers: { wrap },
        },
      ]),
    ),
  };
}

/**
 * A streamed answer a structured-output check refuses, in the pieces a model streams it: a think
 * block, then JSON off every test's schema in a fence, with a sentence before and after it. The
 * text a caller should see is the JSON alone (`{"nope"`, `:1}`), the think block as reasoning.
 */
export const OFF_SCHEMA_THINKING_PIECES: readonly string[] = [
  '<think>',
  'secret plan',
  '</think>',
  'Here:\n```json\n',
  '{"nope"',
  ':1}\n```',
  '\nDone.',
];
