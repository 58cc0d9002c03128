import { type CoreOutcome, coreOutcomesOf, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { isRetryableWithin } from '../src/http/retry-policy';
import { type GatewayError, isGatewayError } from '../src/index';
import { clientOn, DEFAULT_KEYS, hi } from './helpers';

// The kit's table of core's outcomes (CORE_OUTCOMES), checked against core itself: for each row,
// chat / chatStream on a fresh emulator give exactly that route or that error. The adapters'
// tests run the same rows through their frameworks and check only their mapping.

const weather = {
  type: 'function' as const,
  function: {
    name: 'weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  },
};

/** The row's call through `entry`: the answer's route, or the error (of the call or its stream). */
async function run(row: CoreOutcome, entry: 'chat' | 'chatStream') {
  const gateway = await emulate();
  for (const fault of row.faults) gateway.emulator.injectFault(fault);
  const client = clientOn(gateway, { circuitBreaker: row.circuitBreaker ?? false });
  const request = {
    ...hi(row.model),
    ...(row.tools ? { tools: [weather] } : {}),
  };
  const call = async () => {
    if (entry === 'chat') return (await client.chat(request, row.steering)).route;
    const stream = await client.chatStream(request, row.steering);
    await stream.result();
    return stream.route;
  };
  for (let i = 0; i < (row.callsBefore ?? 0); i++) await call().catch(() => undefined);
  const outcome = await call().then(
    (route) => ({ route }),
    (error: unknown) => ({ error }),
  );
  // Whatever the walk cut is closed at the gateway: no slot is left held.
  await gateway.untilIdle({ key: DEFAULT_KEYS.full });
  return outcome;
}

/** The facts of a core error the table states. */
function errorFacts(error: GatewayError, expected: { skipped?: unknown; stall?: unknown }) {
  return {
    code: error.code,
    route: error.route,
    ...(expected.skipped !== undefined
      ? { skipped: error.skipped?.map(({ model, reason }) => ({ model, reason })) }
      : {}),
    ...(expected.stall !== undefined
      ? { stall: { phase: error.stall?.phase, limitMs: error.stall?.limitMs } }
      : {}),
    retryable: isRetryableWithin(error),
  };
}

describe.each(['chat', 'chatStream'] as const)(
  "the kit's table of core's outcomes: %s",
  (entry) => {
    it.each(coreOutcomesOf(entry).map((row) => [row.name, row] as const))(
      '%s',
      async (_name, row) => {
        const outcome = await run(row, entry);
        if ('route' in row.outcome) {
          expect(outcome).toEqual({ route: row.outcome.route });
          return;
        }
        const error = 'error' in outcome ? outcome.error : outcome;
        expect(isGatewayError(error), `core answered: ${JSON.stringify(error)}`).toBe(true);
        expect(errorFacts(error as GatewayError, row.outcome.error)).toEqual(row.outcome.error);
      },
    );
  },
);
