/**
 * An API key pasted by mistake as a key's name inside an option group (`hedge`, `circuitBreaker`,
 * `structuredOutput`) is never quoted in the refusal, at creation as at a call: the whole reading
 * of a user's options runs under one guard (`keyKeptOut`, errors/errors.ts) that redacts the key
 * the client sends — given, or from INFERGATE_API_KEY — from what any group's check throws.
 */
import { describe, expect, it, vi } from 'vitest';
import type { GatewayClientOptions } from '../src/client/options';
import { createGatewayClient, type GatewayError } from '../src/index';
import { readSteering } from '../src/internal';
import { caught, DEFAULT_KEYS } from './helpers';

const KEY = DEFAULT_KEYS.full;
const BASE = 'https://gw.example/v1';

/** Every string the error carries that could leave the process. */
function shown(error: GatewayError): string {
  return [error.message, error.field, error.stack].join('\n');
}

describe('a key pasted as a key name in a group', () => {
  it.each([
    ['hedge', { hedge: { [KEY]: 1 } }, 'hedge'],
    ['circuitBreaker', { circuitBreaker: { [KEY]: 1 } }, 'circuitBreaker'],
  ])('in %s is redacted from the refusal of createGatewayClient', async (_, options, where) => {
    const error = await caught(() =>
      createGatewayClient({ baseURL: BASE, apiKey: KEY, ...options } as GatewayClientOptions),
    );
    expect(error).toMatchObject({ code: 'configuration_error', field: `${where}.[redacted]` });
    expect(error.message).toContain(`unknown option \`[redacted]\` in ${where}`);
    expect(shown(error)).not.toContain(KEY);
  });

  it('is redacted when the key comes from INFERGATE_API_KEY', async () => {
    vi.stubEnv('INFERGATE_API_KEY', KEY);
    try {
      const error = await caught(() =>
        createGatewayClient({ baseURL: BASE, hedge: { [KEY]: 1 } } as never),
      );
      expect(error.message).toContain('unknown option `[redacted]` in hedge');
      expect(shown(error)).not.toContain(KEY);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("is redacted by readSteering given the client's key (an adapter's model settings, its own check of a call)", async () => {
    for (const [options, where] of [
      [{ hedge: { [KEY]: 1 } }, 'hedge'],
      [{ structuredOutput: { [KEY]: 1 } }, 'structuredOutput'],
    ] as const) {
      for (const secret of [KEY, () => KEY]) {
        const error = await caught(() =>
          readSteering(options as never, 'model setting', 'community/general', secret),
        );
        expect(error.message).toContain(`unknown option \`[redacted]\` in ${where}`);
        expect(shown(error)).not.toContain(KEY);
      }
    }
  });
});
