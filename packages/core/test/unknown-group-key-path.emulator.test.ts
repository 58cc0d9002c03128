/**
 * An unknown key inside an option group (`hedge: { delayMs: 1 }`) is refused with its path from the
 * options given as its field (`hedge.delayMs`), as a bad value in the group is (`hedge.afterMs`),
 * not by the bare key (`delayMs`, which names no option of the object the caller wrote). The
 * message keeps the group's words: "unknown option `after` in hedge — did you mean `afterMs`?"
 * (call/option-groups.ts, `refuseUnknownInGroup`).
 */
import { describe, expect, it } from 'vitest';
import type { GatewayClientOptions } from '../src/client/options';
import { createGatewayClient, type GatewayError } from '../src/index';
import { readSteering } from '../src/internal';
import { caught, DEFAULT_KEYS, harness, hi, totalRequests } from './helpers';

const BASE = 'https://gw.example/v1';

/** The refusal of a client made with `options`. */
const creation = (options: Record<string, unknown>) =>
  caught(() =>
    createGatewayClient({
      baseURL: BASE,
      apiKey: DEFAULT_KEYS.full,
      ...options,
    } as GatewayClientOptions),
  );

describe('a client option group refuses an unknown key by its path', () => {
  it.each([
    [
      { hedge: { after: 200 } },
      'hedge.after',
      'unknown option `after` in hedge — did you mean `afterMs`?',
    ],
    [
      { hedge: { afterMs: 5, delayMs: 1 } },
      'hedge.delayMs',
      'unknown option `delayMs` in hedge; known: afterMs, maxExtra',
    ],
    [
      { circuitBreaker: { failure: 2 } },
      'circuitBreaker.failure',
      'unknown option `failure` in circuitBreaker — did you mean `failures`?',
    ],
    [
      { circuitBreaker: { cooldown: 100 } },
      'circuitBreaker.cooldown',
      'unknown option `cooldown` in circuitBreaker — did you mean `cooldownMs`?',
    ],
  ])('createGatewayClient(%o): %s', async (options, field, message) => {
    const error = await creation(options);
    expect(error).toMatchObject({ code: 'configuration_error', field, message });
  });

  it("names an unknown key as a bad value's path is named: from the options object", async () => {
    const unknown = await creation({ hedge: { aftrMs: 5 } });
    const bad = await creation({ hedge: { afterMs: -1 } });
    expect([unknown.field, bad.field]).toEqual(['hedge.aftrMs', 'hedge.afterMs']);
  });
});

describe('a call option group refuses an unknown key by its path, sending nothing', () => {
  const CASES = [
    [{ hedge: { delayMs: 1 } }, 'hedge.delayMs', 'in hedge'],
    [{ hedge: { after: 200 } }, 'hedge.after', 'in hedge — did you mean `afterMs`?'],
    [
      { structuredOutput: { method: ['tools'] } },
      'structuredOutput.method',
      'in structuredOutput — did you mean `methods`?',
    ],
    [
      { structuredOutput: { methods: ['tools'], lastAnwser: 'returned' } },
      'structuredOutput.lastAnwser',
      'in structuredOutput — did you mean `lastAnswer`?',
    ],
  ] as const;

  it.each(
    (['chat', 'chatStream'] as const).flatMap((call) => CASES.map((c) => [call, ...c] as const)),
  )('%s %o: %s', async (call, options, field, words) => {
    const { client, emulator } = await harness();
    const error: GatewayError = await caught(() =>
      call === 'chat'
        ? client.chat(hi(), options as never)
        : client.chatStream(hi(), options as never),
    );
    expect(error).toMatchObject({ code: 'invalid_request_error', field });
    expect(error.message).toContain(words);
    expect(totalRequests(emulator)).toBe(0);
  });
});

describe('a model setting group (an adapter reading it with core) refuses by its path', () => {
  it.each([
    [{ hedge: { delayMs: 1 } }, 'hedge.delayMs'],
    [{ structuredOutput: { method: ['tools'] } }, 'structuredOutput.method'],
  ])('%o: %s', async (options, field) => {
    const error = await caught(() =>
      readSteering(options as never, 'model setting', 'community/general'),
    );
    expect(error).toMatchObject({ code: 'configuration_error', field });
  });
});

describe('the API key pasted as a group key stays redacted in the path', () => {
  it.each([
    ['hedge', { hedge: { [DEFAULT_KEYS.full]: 1 } }],
    ['circuitBreaker', { circuitBreaker: { [DEFAULT_KEYS.full]: 1 } }],
  ])('%s', async (group, options) => {
    const error = await creation(options);
    expect(error.field).toBe(`${group}.[redacted]`);
    expect(JSON.stringify(error) + error.message).not.toContain(DEFAULT_KEYS.full);
  });
});
