import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OVERLAPPING } from './emulator';
import { type LaunchedRuntime, launchWorkerd } from './launch';
import { CONCURRENT, httpTarget } from './matrix';

// A Worker with Cloudflare's `no_global_navigator` compatibility flag has no `navigator`, so no
// `navigator.userAgent === 'Cloudflare-Workers'`: core must still know it runs in workerd (its
// I/O is bound to the request that made it). Taken for Node, it shared one deadline timer and the
// key budget's queue across requests, which workerd refuses: streams answered 200 with empty
// bodies, deadlines never fired and the budget stayed queued. Only the two cases that showed it
// run here (the whole matrix runs in workerd.runtime.test.ts).
let gateway: EmulatedGateway;
let runtime: LaunchedRuntime;

beforeAll(async () => {
  gateway = await emulate({ as: 'http', scenario: OVERLAPPING });
  runtime = await launchWorkerd(
    { baseURL: gateway.baseURL, apiKey: gateway.apiKey },
    { compatibilityFlags: ['no_global_navigator'] },
  );
});
afterAll(async () => {
  await runtime?.close();
  await gateway?.close();
});

const target = () => httpTarget(() => runtime.url);

describe('workerd with no_global_navigator', () => {
  it(`core: ${CONCURRENT} concurrent streams are all read to a non-empty end`, async () => {
    const outcomes = await target().run('/core/stream', CONCURRENT);
    const bad = outcomes.filter((o) => o.status !== 200 || o.body.trim() === '');
    expect(bad).toEqual([]);
  });

  it('core: deadlines fire while calls wait in the queue, and the budget is free afterwards', async () => {
    // Four calls hold the key's slots (their answers are held) while eight more wait behind them:
    // every one ends by its own deadline (the runtime's clock: real), none hangs.
    const release = gateway.hold();
    const holders = target().run('/core/deadline?ms=1500', 4);
    await gateway.untilInflight(4, { key: gateway.apiKey, timeoutMs: 60_000 });
    const queued = await target().run('/core/deadline?ms=300', CONCURRENT - 4);
    const outcomes = [...(await holders), ...queued];
    release();
    const codes = outcomes.map((o) => o.error ?? (JSON.parse(o.body) as { code?: string }).code);
    expect(codes).toEqual(codes.map(() => 'timeout'));
    await gateway.untilIdle({ key: gateway.apiKey, timeoutMs: 60_000 });
    const budget = await (await fetch(new URL('/core/budget', runtime.url))).json();
    expect(budget).toEqual({ active: 0, queued: 0 });
    expect(runtime.log()).not.toMatch(/different request|never generate a response|hung|Uncaught/i);
  });
});
