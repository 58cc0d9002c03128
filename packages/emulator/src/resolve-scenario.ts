// docs/gateway-protocol.md §2.2 (key settings), §3.1 (owners from ids), §3.2 (engines).
import { CHAT_DIALECTS, isChatDialect } from './chat/dialects';
import { defaultScenario } from './default-scenario';
import { faultRuleProblem } from './faults';
import type { ModelOwner, Scenario, ScenarioInput } from './scenario';
import { latencyProblem } from './timing';

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

/**
 * Refuses what a handler could not make sense of, or what would be ignored silently (a misspelt
 * field or fault): the message names the field.
 */
function checkInput(input: Record<string, unknown>, defaults: Scenario): void {
  for (const [field, value] of Object.entries(input)) {
    if (!(field in defaults)) {
      throw new Error(
        `'${field}' is not a scenario field (fields: ${Object.keys(defaults).join(', ')})`,
      );
    }
    const expected = defaults[field as keyof Scenario];
    if (value == null || field === 'latencyMs' || field === 'faults') continue;
    if (isPlainObject(expected) && !isPlainObject(value)) {
      throw new Error(`${field} must be an object, got ${JSON.stringify(value)}`);
    }
    if (typeof expected === 'number' && typeof value !== 'number') {
      throw new Error(`${field} must be a number, got ${JSON.stringify(value)}`);
    }
  }
}

/** Checks what the merge produced that handlers read as numbers and rules. */
function checkResolved(scenario: Scenario): void {
  const latency = latencyProblem(scenario.latencyMs);
  if (latency) throw new Error(`latencyMs ${latency}`);
  if (!Array.isArray(scenario.faults)) throw new Error('faults must be an array of fault rules');
  for (const [index, rule] of scenario.faults.entries()) {
    const problem = faultRuleProblem(rule);
    if (problem) throw new Error(`faults[${index}]: ${problem}`);
  }
  for (const [id, model] of Object.entries(scenario.models)) {
    const problem = model.firstChunkMs == null ? undefined : latencyProblem(model.firstChunkMs);
    if (problem) throw new Error(`models['${id}'].firstChunkMs ${problem}`);
  }
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
  if (!isPlainObject(input)) throw new Error('A scenario must be an object');
  checkInput(input, scenario);
  mergeInto(scenario as unknown as Record<string, unknown>, input as Record<string, unknown>);
  fillDefaults(scenario);
  checkResolved(scenario);
  return scenario;
}
