import { CHAT_DIALECTS, isChatDialect } from './chat/dialects';
import { defaultScenario } from './default-scenario';
import type { ModelOwner, Scenario, ScenarioInput } from './scenario';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mergeInto(target: Record<string, unknown>, patch: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) {
      delete target[key];
    } else if (isPlainObject(value) && isPlainObject(target[key])) {
      mergeInto(target[key] as Record<string, unknown>, value);
    } else {
      target[key] = structuredClone(value);
    }
  }
}

function ownerFromId(id: string): ModelOwner {
  if (id.startsWith('my/')) return 'service-owner';
  return /^pool[^/]*\//.test(id) ? 'service-pool' : 'service-community';
}

/** Fills what a partial entry added by a scenario left out, so handlers can rely on it. */
function fillDefaults(scenario: Scenario): void {
  for (const [id, model] of Object.entries(scenario.models)) {
    model.owned_by ??= ownerFromId(id);
    model.capabilities ??= ['chat'];
    model.online ??= true;
    if (model.dialect != null && !isChatDialect(model.dialect)) {
      throw new Error(
        `models['${id}'].dialect is ${JSON.stringify(model.dialect)}; allowed: ${CHAT_DIALECTS.join(', ')}`,
      );
    }
  }
  for (const key of Object.values(scenario.keys)) {
    key.allowUnshielded ??= false;
    key.offlineFallback ??= false;
  }
  for (const [id, engine] of Object.entries(scenario.services.embeddings.engines)) {
    engine.name ??= id;
    engine.available ??= true;
    if (!Array.isArray(engine.dimensions) || engine.dimensions.length === 0) {
      engine.dimensions = [384];
    }
  }
}

/** `defaultScenario()` with `input` merged over it (objects merge, arrays replace, null removes). */
export function resolveScenario(input: ScenarioInput = {}): Scenario {
  const scenario = defaultScenario();
  mergeInto(scenario as unknown as Record<string, unknown>, input as Record<string, unknown>);
  fillDefaults(scenario);
  return scenario;
}
