import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COLLECT_UNTIL } from './collect-until';
import { runWithGc } from './helpers';

// docs/gateway-protocol.md §4.7: a stream holding its model's probe (held past the call's handover
// until the stream ends) that is dropped unread, its body still open, and collected gives the
// probe back without counting it either way: the next call takes the probe (rv-steer9 F4).
const dist = (name: string) => JSON.stringify(join(import.meta.dirname, '..', 'dist', name));

const SCRIPT = `${COLLECT_UNTIL}
const { createGatewayClient } = await import(${dist('index.js')});
const { emulate } = await import('@infergate/emulator/testing');
// Core's monotonic clock moved by hand: the cooldown passes at once.
const real = performance.now.bind(performance);
let skew = 0;
performance.now = () => real() + skew;
const gateway = await emulate();
const circuit = [];
const client = createGatewayClient({
  ...gateway.connection, maxRetries: 0, retryBaseDelayMs: 0,
  circuitBreaker: { failures: 2, cooldownMs: 60000, maxCooldownMs: 600000 },
  onEvent: (event) => { if (event.type.startsWith('circuit-')) circuit.push(event.type); },
});
const request = { model: 'community/general', messages: [{ role: 'user', content: 'one two' }] };
const list = { fallbackModels: ['community/tools'] };
gateway.emulator.injectFault({ fault: 'bad_gateway', model: 'community/general', times: 2 });
for (let i = 0; i < 2; i++) await client.chat(request, list);
skew += 60001;
// The probe's stream stalls after its first chunks: its body stays open until it is collected.
gateway.emulator.injectFault({ fault: 'stall_stream', model: 'community/general', afterChunks: 2, ms: 600000 });
const open = async () => { await client.chatStream(request, list); };
await open();
await collectUntil(() => client.budget.active === 0);
gateway.emulator.clearFaults();
const next = await client.chatStream(request, list);
await next.result();
console.log(JSON.stringify({ circuit, hops: next.route.hops }));
await gateway.close();
process.exit(0);
`;

describe('a stream holding its probe, dropped unread', () => {
  it('gives the probe back once collected: the next call is the probe', async () => {
    const outcome = await runWithGc(SCRIPT, join(import.meta.dirname, '..'));
    expect(outcome).toEqual({
      circuit: ['circuit-open', 'circuit-probe', 'circuit-probe', 'circuit-close'],
      hops: [{ model: 'community/general', outcome: 'answered' }],
    });
  });
});
