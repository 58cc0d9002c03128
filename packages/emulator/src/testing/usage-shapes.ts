// docs/gateway-protocol.md §4.3 (`usage`: its counts as the model server reports them), §4.8 item 5
// (a structured call moving past a refused answer to its fallback).
import type { ScenarioInput } from '../scenario';

/** A way a model server reports `usage`: the emulator's usage rewritten. */
export type UsageShape = (usage: Record<string, unknown>) => Record<string, unknown>;

/** The server reports prompt and completion tokens, no total. */
export const partsOnly: UsageShape = ({ total_tokens: _, ...usage }) => usage;

/** The server reports a total alone. */
export const totalOnly: UsageShape = ({ total_tokens }) => ({ total_tokens });

/** Every `usage` in a chat answer's body (whole or SSE) rewritten by `shape`. */
function reshaped(text: string, shape: UsageShape): string {
  const each = (json: string) => {
    const body = JSON.parse(json) as { usage?: Record<string, unknown> | null };
    if (body.usage) body.usage = shape(body.usage);
    return JSON.stringify(body);
  };
  if (!text.startsWith('data:')) return each(text);
  return text.replace(/^data: (\{.*\})$/gm, (_, json: string) => `data: ${each(json)}`);
}

/**
 * `fetch` (the emulator's) whose successful chat answers from the models in `shapes` report their
 * usage in that model's shape; every other answer passes as it is.
 */
export function usageReshapedFetch(
  fetch: typeof globalThis.fetch,
  shapes: Record<string, UsageShape>,
): typeof globalThis.fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const answer = await fetch(request.clone());
    if (!request.url.endsWith('/chat/completions')) return answer;
    const shape = shapes[((await request.json()) as { model: string }).model];
    if (shape === undefined || !answer.ok) return answer;
    return new Response(reshaped(await answer.text(), shape), answer);
  };
}

/**
 * `scenario` with one streaming `json_schema` model more, `model`, whose every JSON answer breaks
 * the schema: a fallback that is refused too.
 */
export function withOffSchemaModel(scenario: ScenarioInput, model: string): ScenarioInput {
  return {
    ...scenario,
    models: {
      ...scenario.models,
      [model]: {
        owned_by: 'service-community',
        capabilities: ['chat', 'streaming', 'json_schema'],
        jsonAnswers: { offSchemaShare: 1 },
      },
    },
  };
}
