// docs/gateway-protocol.md §2.2 (key settings), §3.1 (owners from ids), §3.2 (engines).
import { checkScenarioInput, ScenarioError } from './check-scenario';
import { defaultScenario } from './default-scenario';
import { faultRuleProblem } from './faults';
import { entryPath, prototypeKeyProblem } from './field-names';
import type { ModelOwner, Scenario, ScenarioInput } from './scenario';
import { latencyProblem } from './timing';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Fields whose value replaces the old one whole: a latency is one setting, not fields to merge. */
const WHOLE_VALUES: ReadonlySet<string> = new Set(['latencyMs', 'firstChunkMs']);

/**
 * Merges `patch` into `target` as data: own fields only, never a prototype key (the input check
 * refused them; this stays safe on its own), every value copied.
 */
function mergeInto(target: Record<string, unknown>, patch: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(patch)) {
    const problem = prototypeKeyProblem(key, key);
    if (problem !== undefined) throw new ScenarioError(problem);
    if (value === undefined) continue;
    if (value === null) {
      delete target[key];
    } else if (
      !WHOLE_VALUES.has(key) &&
      isPlainObject(value) &&
      Object.hasOwn(target, key) &&
      isPlainObject(target[key])
    ) {
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

/** Checks what the merge produced that handlers read as numbers and rules. */
function checkResolved(scenario: Scenario): void {
  const problems = [
    latencyProblem(scenario.latencyMs, 'latencyMs'),
    ...scenario.faults.map((rule, index) => faultRuleProblem(rule, entryPath('faults', index))),
    ...Object.entries(scenario.models).map(([id, model]) =>
      model.firstChunkMs == null
        ? undefined
        : latencyProblem(model.firstChunkMs, `${entryPath('models', id)}.firstChunkMs`),
    ),
  ];
  const problem = problems.find((found) => found !== undefined);
  if (problem !== undefined) throw new ScenarioError(problem);
}

/**
 * Fills what a partial entry added by a scenario left out, so handlers can rely on it. An engine
 * whose `dimensions` the scenario gives lists them in the catalog unless told not to.
 */
function fillDefaults(scenario: Scenario, input: ScenarioInput): void {
  const givenEngines = input.services?.embeddings?.engines;
  for (const [id, model] of Object.entries(scenario.models)) {
    model.owned_by ??= ownerFromId(id);
    model.capabilities ??= ['chat'];
    model.online ??= true;
  }
  for (const key of Object.values(scenario.keys)) {
    key.allowUnshielded ??= false;
    key.offlineFallback ??= false;
  }
  for (const [id, engine] of Object.entries(scenario.services.embeddings.engines)) {
    engine.name ??= id;
    engine.available ??= true;
    const given = givenEngines && Object.hasOwn(givenEngines, id) ? givenEngines[id] : undefined;
    if (Array.isArray(given?.dimensions)) engine.listDimensions ??= true;
    if (!Array.isArray(engine.dimensions) || engine.dimensions.length === 0) {
      engine.dimensions = [384];
    }
  }
}

/**
 * `defaultScenario()` with `input` merged over it (objects merge, arrays replace, null removes).
 * Every field is checked first: what does not fit throws a `ScenarioError` naming its path.
 */
export function resolveScenario(input: ScenarioInput = {}): Scenario {
  checkScenarioInput(input);
  const scenario = defaultScenario();
  mergeInto(scenario as unknown as Record<string, unknown>, input as Record<string, unknown>);
  fillDefaults(scenario, input);
  checkResolved(scenario);
  return scenario;
}
