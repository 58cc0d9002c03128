/**
 * `ask_model` with `fallback_models` and the stall timeouts (createGatewayMcpServer options and
 * the `--first-chunk-timeout-ms` / `--chunk-timeout-ms` flags), through the MCP SDK's own Client
 * against the emulator: core walks the list, the result names the model that answered. The
 * stalls the limits cut are tested on a driven clock, in ask-model-stalls.test.ts.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGatewayMcpServer } from '../src/index';
import { withCliOverHttp } from './cli-over-http';
import { askWithProgress, type Harness, startHarness, textOf } from './harness';

/**
 * The stall limits of this file's server: set (the refusals below are checked under them) but never
 * reached, far above any answer's latency on a loaded machine. The stalls themselves are tested on a
 * driven clock (ask-model-stalls.test.ts).
 */
const SERVER_STALL_LIMIT_MS = 30_000;
/**
 * The limit given to `infergate-mcp --first-chunk-timeout-ms`: a real one (the CLI serves over
 * HTTP, where a driven clock would not move the sockets' I/O), above the emulator's latency.
 */
const CLI_STALL_LIMIT_MS = 1000;
let harness: Harness;
let client: Client;
beforeAll(async () => {
  harness = await startHarness({
    server: { firstChunkTimeoutMs: SERVER_STALL_LIMIT_MS, chunkTimeoutMs: SERVER_STALL_LIMIT_MS },
  });
  client = await harness.connect();
});
afterAll(() => harness.close());
beforeEach(() => {
  const { emulator } = harness.gateway;
  emulator.clearFaults();
  emulator.resetCounters();
  // `model_offline` takes it offline for good, and the client remembers the catalog without it.
  emulator.scenario.models['community/general']!.online = true;
  harness.mcp.client.refreshCatalog();
});

const emulator = () => harness.gateway.emulator;
const chats = () => emulator().counters.requests.chat;
/**
 * The key's slots taken by the server's client (given back at once after a stall), and by any
 * other client in this process on the same key: the in-process budget is the key's.
 */
const slotsTaken = () => harness.mcp.client.budget.active;
/** Requests on the key that the emulator is still answering. */
const inflight = () => emulator().counters.inflight[harness.gateway.apiKey] ?? 0;

// No test leaves a request behind: a cut one has ended at the gateway, its slot is back.
afterEach(() => {
  expect({ inflight: inflight(), slots: slotsTaken() }).toEqual({ inflight: 0, slots: 0 });
});
/** An hour: a wait on this Retry-After could never end the test. */
const busy = (model = 'community/general') =>
  emulator().injectFault({ fault: 'model_busy', model, retryAfter: 3600 });

async function ask(args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name: 'ask_model', arguments: args })) as CallToolResult;
}

/**
 * `ask_model` with `args`, through `infergate-mcp --http` started with `flags` (and the gateway's
 * URL and key), asked by a remote MCP client while community/general stalls before its first chunk.
 */
async function askCliWhileGeneralStalls(
  flags: string[],
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const result = await withCliOverHttp(harness.gateway, flags, async (remote) => {
    emulator().injectFault({ fault: 'stall_first_chunk', model: 'community/general', ms: 60_000 });
    return (await remote.callTool({ name: 'ask_model', arguments: args })) as CallToolResult;
  });
  // The stalled request was cut: the answer can come before the gateway has seen the close, and
  // the key's slot comes back after the cut's grace. Wait for both, as the tests above do.
  await harness.gateway.untilIdle({ key: harness.gateway.apiKey });
  await harness.mcp.client.budget.whenIdle();
  return result;
}

describe('ask_model with fallback_models', () => {
  it('a busy model is answered by the next, at once; the result names who answered and why', async () => {
    busy();
    const result = await ask({
      model: 'community/general',
      prompt: 'hello there',
      fallback_models: ['community/streamer'],
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      text: 'Echo: hello there',
      model: 'community/streamer',
      requested_model: 'community/general',
      route: {
        requested: ['community/general', 'community/streamer'],
        hops: [
          { model: 'community/general', outcome: 'failed', reason: 'model_busy' },
          { model: 'community/streamer', outcome: 'answered' },
        ],
        answeredBy: 'community/streamer',
      },
    });
    expect(textOf(result)).toBe(
      'Echo: hello there\n\n(answered by community/streamer in place of community/general; community/general: failed (model_busy))',
    );
    expect(chats()).toBe(2);
  });

  it('skips a model lacking json_object without a request; the first model is not refused', async () => {
    const result = await ask({
      model: 'community/plain',
      prompt: 'hi',
      json: true,
      fallback_models: ['community/streamer', 'community/json-object'],
    });
    expect(result.structuredContent).toMatchObject({
      model: 'community/json-object',
      route: {
        hops: [
          { model: 'community/plain', outcome: 'skipped', reason: 'missing_capability' },
          { model: 'community/streamer', outcome: 'skipped', reason: 'missing_capability' },
          { model: 'community/json-object', outcome: 'answered' },
        ],
      },
    });
    expect(chats()).toBe(1);
  });

  it('with a list the answer is asked for whole, also when progress is wanted: a model without streaming stays eligible', async () => {
    busy();
    const { result, steps } = await askWithProgress(client, {
      model: 'community/general',
      prompt: 'hi',
      fallback_models: ['community/plain'],
    });
    expect(result.structuredContent).toMatchObject({ model: 'community/plain' });
    expect(steps.length).toBeGreaterThan(0);
  });

  it('an offline model fails over, then is skipped from the refreshed catalog', async () => {
    emulator().injectFault({ fault: 'model_offline', model: 'community/general' });
    const args = {
      model: 'community/general',
      prompt: 'hi',
      fallback_models: ['community/streamer'],
    };
    const first = await ask(args);
    expect(first.structuredContent).toMatchObject({
      model: 'community/streamer',
      route: { hops: [{ outcome: 'failed', reason: 'provider_unavailable' }, {}] },
    });
    const second = await ask(args);
    expect(second.structuredContent).toMatchObject({
      model: 'community/streamer',
      route: { hops: [{ outcome: 'skipped', reason: 'not_in_catalog' }, {}] },
    });
    expect(chats()).toBe(3);
  });

  it('no listed model can serve: refused before any request, every model named', async () => {
    const result = await ask({
      model: 'community/plain',
      prompt: 'hi',
      json: true,
      fallback_models: ['community/streamer', 'community/unknown'],
    });
    expect(result.isError).toBe(true);
    const { error } = result.structuredContent as {
      error: { code: string; skipped: { model: string; reason: string }[]; what_to_do: string };
    };
    expect(error.code).toBe('no_model_can_serve');
    expect(error.skipped.map((skip) => [skip.model, skip.reason])).toEqual([
      ['community/plain', 'missing_capability'],
      ['community/streamer', 'missing_capability'],
      ['community/unknown', 'not_in_catalog'],
    ]);
    expect(error.what_to_do).toContain('list_models');
    expect(chats()).toBe(0);
  });

  it("follows core's rule, no cap of its own: [] is a call to one model, nine ids are gated by core", async () => {
    const one = await ask({ model: 'community/general', prompt: 'hi', fallback_models: [] });
    expect(one.isError).toBeFalsy();
    expect(one.structuredContent).toMatchObject({ model: 'community/general' });
    emulator().resetCounters();
    // Nine ids (the old cap was 8): core plans them all, skips the unlisted, the ninth answers.
    busy();
    const missing = Array.from({ length: 8 }, (_, i) => `community/missing-${i}`);
    const nine = [...missing, 'community/streamer'];
    const result = await ask({ model: 'community/general', prompt: 'hi', fallback_models: nine });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      model: 'community/streamer',
      route: { requested: ['community/general', ...nine] },
    });
  });

  it("refuses an empty id with core's one reader: invalid_request_error, nothing sent", async () => {
    const result = await ask({ model: 'community/general', prompt: 'hi', fallback_models: [''] });
    expect(result.isError).toBe(true);
    // Named as the tool's argument, never core's option (`fallbackModels[0] (call option)`).
    expect(result.structuredContent).toMatchObject({
      error: {
        code: 'invalid_request_error',
        field: 'fallback_models[0]',
        message:
          'fallback_models[0]: must be a non-empty model id from GET /models, got an empty string',
      },
    });
    expect(textOf(result)).toContain('Fix the argument "fallback_models[0]"');
    expect(textOf(result)).not.toMatch(/fallbackModels|call option/);
    expect(chats()).toBe(0);
  });

  it("refuses an id twice or the model itself with core's one reader: invalid_request_error, nothing sent", async () => {
    const cases = [
      [
        ['community/streamer', 'community/streamer'],
        'fallback_models[1]: repeats fallback_models[0]',
      ],
      [['community/general'], "fallback_models[0]: repeats the call's own model"],
    ] as const;
    for (const [fallback_models, words] of cases) {
      const result = await ask({ model: 'community/general', prompt: 'hi', fallback_models });
      expect(result.isError).toBe(true);
      const error = (
        result.structuredContent as { error: { code: string; field: string; message: string } }
      ).error;
      expect(error.code).toBe('invalid_request_error');
      expect(error.message).toBe(words);
      expect(error.field).toBe(words.slice(0, words.indexOf(':')));
      expect(textOf(result)).not.toMatch(/fallbackModels|call option/);
    }
    expect(chats()).toBe(0);
    expect(emulator().counters.requests.models).toBe(0);
  });

  it('one model (no fallback_models) under the stall timeouts is refused as without them', async () => {
    // A stall timeout changes how a call is sent, not how it is refused: no_model_can_serve is a
    // list's refusal.
    const unknown = await ask({ model: 'community/generl', prompt: 'hi' });
    expect(unknown.structuredContent).toMatchObject({
      error: {
        code: 'model_not_found',
        alternatives: expect.arrayContaining(['community/general']),
      },
    });
    const json = await ask({ model: 'community/plain', prompt: 'hi', json: true });
    // (json: true is core's structured output by json_object alone: a model without it is
    // skipped, as with output_schema.)
    expect(json.structuredContent).toMatchObject({
      error: {
        code: 'no_model_can_serve',
        skipped: [{ model: 'community/plain', reason: 'missing_capability' }],
        alternatives: expect.arrayContaining(['community/json-object']),
      },
    });
    expect(chats()).toBe(0);
  });
});

describe('the server options are core groups, strict', () => {
  // (clientOptions' unknown keys, named by their path from the server's options, with the same
  // code, field and message: client-options-paths.test.ts.)
  it.each([
    [
      { firstChunkTimeoutMS: 500 },
      'unknown option `firstChunkTimeoutMS` in createGatewayMcpServer — did you mean `firstChunkTimeoutMs`?',
      'firstChunkTimeoutMS',
    ],
    [
      { hedge: { after: 200 } },
      'unknown option `after` in hedge — did you mean `afterMs`?',
      'hedge.after',
    ],
  ])(
    'createGatewayMcpServer(%o) is refused, naming the closest option',
    (options, message, field) => {
      expect(() => createGatewayMcpServer({ catalogRefreshMs: 0, ...options } as never)).toThrow(
        expect.objectContaining({ code: 'configuration_error', message, field }),
      );
    },
  );

  it('says fallback models are a tool argument when given to the server', () => {
    expect(() =>
      createGatewayMcpServer({ catalogRefreshMs: 0, fallbackModels: ['x'] } as never),
    ).toThrow('`fallback_models` is an argument of each ask_model call');
  });
});

describe('the stall timeouts as options and flags', () => {
  it('createGatewayMcpServer refuses a timeout that is no number of ms > 0', () => {
    expect(() => createGatewayMcpServer({ firstChunkTimeoutMs: 0, catalogRefreshMs: 0 })).toThrow(
      'firstChunkTimeoutMs (client option) must be a finite number of ms > 0, got 0',
    );
    expect(() =>
      createGatewayMcpServer({ chunkTimeoutMs: Number.NaN, catalogRefreshMs: 0 }),
    ).toThrow(expect.objectContaining({ code: 'configuration_error', field: 'chunkTimeoutMs' }));
  });

  it('infergate-mcp --first-chunk-timeout-ms reaches ask_model', async () => {
    const result = await askCliWhileGeneralStalls(
      ['--first-chunk-timeout-ms', String(CLI_STALL_LIMIT_MS)],
      { model: 'community/general', prompt: 'hi', fallback_models: ['community/streamer'] },
    );
    expect(result.structuredContent).toMatchObject({ model: 'community/streamer' });
  });
});

describe("infergate-mcp's --timeout-ms (core's timeouts group, as a flag)", () => {
  it('is the deadline of an ask_model call', async () => {
    const result = await askCliWhileGeneralStalls(['--timeout-ms', '300'], {
      model: 'community/general',
      prompt: 'hi',
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code: 'timeout' } });
  });
});

describe('the note of models passed over', () => {
  it('names three and counts the rest, however long the list (the route has them all)', async () => {
    const fallbacks = Array.from({ length: 300 }, (_, i) => `x/m${i}`);
    busy();
    const result = await ask({
      model: 'community/general',
      prompt: 'hi',
      fallback_models: [...fallbacks, 'community/streamer'],
    });
    const text = textOf(result);
    expect(text).toBe(
      "Echo: hi\n\n(answered by community/streamer in place of community/general; x/m0: skipped (not_in_catalog), x/m1: skipped (not_in_catalog), x/m2: skipped (not_in_catalog) and 298 more (every one in the result's structured route))",
    );
    const route = (result.structuredContent as { route: { hops: unknown[] } }).route;
    expect(route.hops).toHaveLength(302);
  });
});
