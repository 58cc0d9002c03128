// docs/gateway-protocol.md §3.1 and §3.2 (the catalog the emulator serves by default).
import type { ModelSpec, OptionalCapability, Scenario } from './scenario';

/** The default API keys, by name. */
export const DEFAULT_KEYS = {
  full: 'ig-emu-full-0000',
  shielded: 'ig-emu-shielded-0000',
  nofallback: 'ig-emu-nofallback-0000',
  limited: 'ig-emu-limited-0000',
} as const;

const COMBO_FLAGS: [string, OptionalCapability][] = [
  ['s', 'streaming'],
  ['t', 'tools'],
  ['o', 'json_object'],
  ['j', 'json_schema'],
];

function comboModels(): Record<string, ModelSpec> {
  const models: Record<string, ModelSpec> = {};
  for (let mask = 0; mask < 16; mask++) {
    const flags = COMBO_FLAGS.filter((_, i) => mask & (1 << i));
    const id = `combo/${flags.map(([letter]) => letter).join('') || 'none'}`;
    models[id] = community(flags.map(([, cap]) => cap));
  }
  return Object.fromEntries(
    Object.entries(models).sort(([a], [b]) => comboOrder(a) - comboOrder(b)),
  );
}

/** Orders `combo/*` ids by the number of flags, then by flag order (none, s, t, o, j, st, ...). */
function comboOrder(id: string): number {
  const letters = id.slice('combo/'.length).replace('none', '');
  let rank = 0;
  for (const letter of letters) rank = rank * 5 + 1 + 'stoj'.indexOf(letter);
  return letters.length * 1000 + rank;
}

function community(capabilities: OptionalCapability[]): ModelSpec {
  return {
    owned_by: 'service-community',
    capabilities: ['chat', ...capabilities],
    online: true,
    verification: 'exact',
    capacity: 64,
  };
}

const EVERYTHING: OptionalCapability[] = ['streaming', 'tools', 'json_object', 'json_schema'];

/** A fresh copy of the default scenario (see the package README for the table). */
export function defaultScenario(): Scenario {
  return {
    keys: {
      [DEFAULT_KEYS.full]: { name: 'full', allowUnshielded: true, offlineFallback: true },
      [DEFAULT_KEYS.shielded]: { name: 'shielded', allowUnshielded: false, offlineFallback: true },
      [DEFAULT_KEYS.nofallback]: {
        name: 'nofallback',
        allowUnshielded: true,
        offlineFallback: false,
      },
      [DEFAULT_KEYS.limited]: {
        name: 'limited',
        allowUnshielded: true,
        offlineFallback: true,
        allowedModels: ['community/general'],
      },
    },
    models: {
      'community/general': { ...community(EVERYTHING), name: 'General (everything)' },
      'community/plain': { ...community([]), name: 'Plain (chat only)' },
      'community/streamer': { ...community(['streaming']), name: 'Streamer' },
      'community/tools': { ...community(['streaming', 'tools']), name: 'Tools' },
      'community/json-object': { ...community(['streaming', 'json_object']), name: 'JSON object' },
      'community/json-schema': { ...community(['streaming', 'json_schema']), name: 'JSON schema' },
      'community/reasoner': {
        ...community(['streaming', 'tools']),
        name: 'Reasoner (reasoning_content, DeepSeek dialect)',
        dialect: 'deepseek',
      },
      ...comboModels(),
      'pool-a/llama-3-8b': {
        owned_by: 'service-pool',
        name: 'Llama 3 8B',
        capabilities: ['chat', ...EVERYTHING],
        online: true,
        verification: 'provider_claimed',
        pool: 'pool-a',
        copies: 2,
        capacity: 8,
      },
      'pool-a/qwen-7b': {
        owned_by: 'service-pool',
        name: 'Qwen 7B',
        capabilities: ['chat', 'streaming', 'tools'],
        online: true,
        verification: 'provider_claimed',
        pool: 'pool-a',
        copies: 1,
        capacity: 4,
      },
      'my/desk-model': {
        owned_by: 'service-owner',
        name: 'Desk model',
        capabilities: ['chat', 'streaming'],
        online: true,
        verification: 'exact',
        capacity: 4,
      },
      'my/laptop-model': {
        owned_by: 'service-owner',
        name: 'Laptop model',
        capabilities: ['chat', 'streaming', 'tools'],
        online: false,
        verification: 'exact',
        capacity: 4,
        fallback: 'pool-a/llama-3-8b',
      },
    },
    services: {
      translation: { name: 'Translation', availableNodes: 2, capacity: 8 },
      ocr: { name: 'Text from images', availableNodes: 1, capacity: 4 },
      speech_to_text: { name: 'Speech to text', availableNodes: 1, capacity: 4 },
      embeddings: {
        name: 'Embeddings',
        availableNodes: 2,
        capacity: 16,
        engines: {
          'multilingual-e5-base': {
            name: 'Multilingual E5 base',
            capacity: 8,
            available: true,
            dimensions: [768, 512, 256, 128],
            maxTextBytes: 32 * 1024,
            inputTypes: true,
          },
          'all-minilm-l6-v2': {
            name: 'all-MiniLM-L6-v2 (English)',
            capacity: 8,
            available: true,
            dimensions: [384],
            maxTextBytes: null,
            inputTypes: false,
          },
        },
      },
    },
    latencyMs: 0,
    streamChunkDelayMs: 0,
    requestTimeoutMs: 5 * 60 * 1000,
    maxConcurrentPerKey: 4,
    retryAfterSeconds: 1,
    faults: [],
  };
}
