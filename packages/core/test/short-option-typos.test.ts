import { describe, expect, it } from 'vitest';
import type { GatewayClientOptions } from '../src/client/options';
import { createGatewayClient } from '../src/index';
import { caught, DEFAULT_KEYS } from './helpers';

// Two letters swapped in a short option name is two edits, as far as a short name's edit budget
// reaches (errors/close-names.ts: at most max(2, a third of its length)): the refusal still names
// the option meant (docs/gateway-protocol.md §3.1). The names of five to seven letters are where
// a budget one edit tighter would drop the hint.

const create = (options: Record<string, unknown>) => () =>
  createGatewayClient({
    baseURL: 'https://gw.example/v1',
    apiKey: DEFAULT_KEYS.full,
    ...options,
  } as GatewayClientOptions);

describe('a short option name with two letters swapped: createGatewayClient names the one meant', () => {
  it.each([
    ['fecth', 'fetch', globalThis.fetch],
    ['bugdet', 'budget', {}],
    ['apiKye', 'apiKey', 'ig-other-key'],
    ['onEvnet', 'onEvent', () => {}],
    ['bsaeURL', 'baseURL', 'https://gw.example/v1'],
  ])('%s → %s', async (typo, meant, value) => {
    const error = await caught(create({ [typo]: value }));
    expect(error).toMatchObject({ code: 'configuration_error', field: typo });
    expect(error.message).toBe(
      `unknown option \`${typo}\` in createGatewayClient — did you mean \`${meant}\`?`,
    );
  });
});
