import { describe, expect, it } from 'vitest';
import { ScenarioError } from './check-scenario';
import { createEmulator } from './emulator';
import { resolveScenario } from './resolve-scenario';
import type { ScenarioInput } from './scenario';

/** A scenario as a file or a JSON body gives it: no type checks, own `__proto__` keys kept. */
function json(text: string): ScenarioInput {
  return JSON.parse(text) as ScenarioInput;
}

function refusal(input: ScenarioInput): ScenarioError {
  try {
    resolveScenario(input);
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioError);
    return error as ScenarioError;
  }
  throw new Error('the scenario was accepted');
}

describe('a scenario is checked at every depth', () => {
  it.each([
    [
      { models: { 'x/slow': { firstChunkMS: 500 } } },
      'unknown field models["x/slow"].firstChunkMS — did you mean firstChunkMs?',
    ],
    [
      { models: { 'x/a': { capabilites: ['chat'] } } },
      'unknown field models["x/a"].capabilites — did you mean capabilities?',
    ],
    [
      { keys: { k: { allowUnshieled: true } } },
      'unknown field keys["k"].allowUnshieled — did you mean allowUnshielded?',
    ],
    [
      { services: { ocr: { availabeNodes: 0 } } },
      'unknown field services.ocr.availabeNodes — did you mean availableNodes?',
    ],
    [
      { models: { 'x/a': { capabilities: ['chat', 'streamng'] } } },
      'models["x/a"].capabilities[1] "streamng" is unknown — did you mean streaming?',
    ],
    [
      { services: { embeddings: { engines: { e: { dimension: [3] } } } } },
      'unknown field services.embeddings.engines["e"].dimension — did you mean dimensions?',
    ],
    [{ latencyMS: 5 }, 'unknown field latencyMS — did you mean latencyMs?'],
    [
      { faults: [{ fault: 'bad_gateway', evry: 2 }] },
      'unknown field faults[0].evry — did you mean every?',
    ],
    [
      { faults: [{ fault: 'bad_gateway', every: 0 }] },
      'faults[0].every must be a whole number ≥ 1',
    ],
    [
      { models: { 'x/slow': { firstChunkMs: { p50Ms: 300, p99Ms: 3000 } } } },
      'models["x/slow"].firstChunkMs has p50Ms but no distribution: a log-normal latency needs "distribution": "lognormal"',
    ],
    [
      {
        models: {
          'x/slow': { firstChunkMs: { distribution: 'lognormal', p50Ms: 3, p99MS: 30 } },
        },
      },
      'unknown field models["x/slow"].firstChunkMs.p99MS — did you mean p99Ms?',
    ],
    [
      {
        latencyMs: {
          distribution: 'lognormal',
          p50Ms: 3,
          p99Ms: 30,
          held: { share: 0.1, min: 1, maxMs: 2 },
        },
      },
      'unknown field latencyMs.held.min — did you mean minMs?',
    ],
    [{ latencyMs: { min: 1, mx: 5 } }, 'unknown field latencyMs.mx — did you mean max?'],
    [{ models: { 'x/a': { online: 'false' } } }, 'models["x/a"].online must be true or false'],
    [{ models: { 'x/a': { owned_by: 'pool' } } }, 'models["x/a"].owned_by "pool" is unknown'],
    [{ keys: { k: { allowedModels: 'x/a' } } }, 'keys["k"].allowedModels must be an array'],
    [{ maxConcurrentPerKey: '4' }, 'maxConcurrentPerKey must be a number ≥ 0'],
    [{ faults: null }, 'faults cannot be null'],
    [{ services: { ocr: null } }, 'services.ocr cannot be null'],
  ] as [ScenarioInput, string][])('refuses %j', (input, message) => {
    expect(refusal(input).message).toContain(message);
  });

  it('lists the known fields when none is close', () => {
    expect(refusal(json('{"models":{"x/a":{"zzz":1}}}')).message).toMatch(
      /unknown field models\["x\/a"\]\.zzz \(known: owned_by, name, capabilities, /,
    );
  });

  it('throws the same typed error from createEmulator', () => {
    expect(() => createEmulator(json('{"models":{"x/slow":{"firstChunkMS":5}}}'))).toThrow(
      new ScenarioError('unknown field models["x/slow"].firstChunkMS — did you mean firstChunkMs?'),
    );
  });

  it('accepts null where it removes an entry or an optional field', () => {
    const scenario = resolveScenario({
      models: { 'community/plain': null, 'community/general': { dialect: null, online: null } },
      keys: { 'ig-emu-limited-0000': { allowedModels: null } },
    });
    expect(scenario.models['community/plain']).toBeUndefined();
    expect(scenario.models['community/general']!.online).toBe(true);
    expect(scenario.keys['ig-emu-limited-0000']!.allowedModels).toBeUndefined();
  });

  it('replaces a latency whole instead of merging two shapes', () => {
    const emulator = createEmulator({ latencyMs: { min: 1, max: 2 } });
    const next = resolveScenario({
      ...emulator.scenario,
      latencyMs: { distribution: 'lognormal', p50Ms: 1, p99Ms: 2 },
    });
    expect(next.latencyMs).toEqual({ distribution: 'lognormal', p50Ms: 1, p99Ms: 2 });
  });
});

describe('prototype keys are refused, never taken as data (issue 53, defect 15)', () => {
  const cases = [
    '{"__proto__":{"online":false}}',
    '{"models":{"__proto__":{"online":false}}}',
    '{"models":{"constructor":{}}}',
    '{"keys":{"prototype":{"allowUnshielded":true}}}',
    '{"models":{"x/a":{"__proto__":{"online":false}}}}',
    '{"services":{"embeddings":{"engines":{"__proto__":{"dimensions":[3]}}}}}',
    '{"latencyMs":{"__proto__":{"min":1},"min":1,"max":2}}',
    '{"faults":[{"fault":"bad_gateway","__proto__":{"every":2}}]}',
  ];

  it.each(cases)('resolveScenario refuses %s and leaves Object.prototype alone', (text) => {
    expect(refusal(json(text)).message).toMatch(
      /is refused: "(__proto__|constructor|prototype)" names an object's prototype/,
    );
    expect(({} as { online?: unknown }).online).toBeUndefined();
    expect(Object.keys(Object.prototype)).toEqual([]);
  });

  it.each(cases)('createEmulator refuses %s', (text) => {
    expect(() => createEmulator(json(text))).toThrow(ScenarioError);
    expect(Object.keys(Object.prototype)).toEqual([]);
  });
});
