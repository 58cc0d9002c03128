import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { createGateway } from '@infergate/ai-sdk';
import { createGatewayClient, type GatewayEvent, isGatewayError } from '@infergate/core';
import { generateText } from 'ai';
import { afterAll, afterEach, beforeAll, describe, expect } from 'vitest';
import { hostileSuite, leaksIn, views } from './harness/hostile-rows';
import {
  answerJson,
  answerSse,
  drain,
  type HostileServer,
  pour,
  startHostileServer,
} from './harness/hostile-server';

/**
 * The hostile cases whose fixes live in core's transport, budget and stream code (bounded reads,
 * budget normalisation, argument checks of the client, empty `choices`).
 */

const KEY = 'sk-HOSTILE-transport-7c1e9b';
const MIB = 1024 * 1024;
const MODEL = 'community/general';
const suite = hostileSuite('hostile-transport');

/** Chat requests held by the server until released, with the peak number in flight. */
class Gate {
  inFlight = 0;
  peak = 0;
  statuses: number[] = [];
  #waiting: (() => void)[] = [];
  #watchers: { count: number; resolve: () => void }[] = [];
  #open = false;
  async hold(): Promise<void> {
    this.inFlight++;
    this.peak = Math.max(this.peak, this.inFlight);
    for (const w of this.#watchers.filter((w) => this.inFlight >= w.count)) w.resolve();
    if (!this.#open) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.inFlight--;
  }
  /** Resolves once `count` requests are held at once. */
  reached(count: number): Promise<void> {
    if (this.inFlight >= count) return Promise.resolve();
    return new Promise((resolve) => this.#watchers.push({ count, resolve }));
  }
  releaseAll(): void {
    for (const release of this.#waiting.splice(0)) release();
  }
  /** Lets the held requests go, and every later one through without holding it. */
  open(): void {
    this.#open = true;
    this.releaseAll();
  }
}

/** One turn of the event loop: what the calls do next without I/O (a budget's queue) is done. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * The `queued` (a chat call asks for a slot) and `dequeued` (it got one) events of the clients given
 * `onEvent: slots.onEvent`: a wait on the calls' own events, not on a timer.
 */
class SlotEvents {
  queued = 0;
  dequeued = 0;
  #watchers: { count: number; resolve: () => void }[] = [];
  onEvent = (event: GatewayEvent): void => {
    if (event.operation !== 'chat') return;
    if (event.type === 'queued') this.queued++;
    else if (event.type === 'dequeued') this.dequeued++;
    for (const w of this.#watchers.filter((w) => this.queued >= w.count)) w.resolve();
  };
  /** Resolves once `count` calls have asked for a slot, and a turn later (each is in its queue). */
  async asked(count: number): Promise<void> {
    if (this.queued < count) {
      await new Promise<void>((resolve) => this.#watchers.push({ count, resolve }));
    }
    await turn();
  }
}

const gates: Record<string, Gate> = {
  spelling: new Gate(),
  mixed: new Gate(),
  hol: new Gate(),
  catalog: new Gate(),
};
const OK_CHAT = JSON.stringify({
  id: 'x',
  object: 'chat.completion',
  model: MODEL,
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
});
const held =
  (gate: Gate, endpoint = 'chat/completions') =>
  async (req: IncomingMessage, res: ServerResponse, seen: string) => {
    if (seen !== endpoint) return false;
    await drain(req);
    await gate.hold();
    if (endpoint === 'chat/completions') answerJson(res, 200, OK_CHAT);
    else return false;
    return true;
  };

let hostile: HostileServer;
let port = 0;
beforeAll(async () => {
  hostile = await startHostileServer(KEY, {
    spelling: held(gates.spelling!),
    mixed: held(gates.mixed!),
    hol: held(gates.hol!),
    catalog: held(gates.catalog!, 'models'),
    'empty-choices': async (req, res, endpoint) => {
      if (endpoint !== 'chat/completions') return false;
      await drain(req);
      answerJson(
        res,
        200,
        JSON.stringify({ id: 'x', object: 'chat.completion', model: MODEL, choices: [] }),
      );
      return true;
    },
    'choice-one-only': async (req, res, endpoint) => {
      if (endpoint !== 'chat/completions') return false;
      await drain(req);
      answerSse(res, [
        JSON.stringify({
          object: 'chat.completion.chunk',
          model: MODEL,
          choices: [{ index: 1, delta: { content: 'hi' }, finish_reason: 'stop' }],
        }),
        '[DONE]',
      ]);
      return true;
    },
    'gzip-bomb': async (req, res, endpoint) => {
      if (endpoint !== 'chat/completions') return false;
      await drain(req);
      // 64 MiB of JSON whitespace in about 64 KB of gzip.
      const bomb = gzipSync(Buffer.alloc(64 * MIB, 0x20));
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(bomb);
      return true;
    },
    'huge-line': async (req, res, endpoint) => {
      if (endpoint !== 'chat/completions') return false;
      await drain(req);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: ');
      // One line of 40 MiB with no line end (the case reported was 400 MB: the bound is the same).
      await pour(res, Buffer.alloc(MIB, 0x61), 40 * MIB);
      return true;
    },
    endless: async (req, res, endpoint) => {
      if (endpoint !== 'chat/completions') return false;
      await drain(req);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const event = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'x'.repeat(4000) } }] })}\n\n`;
      await pour(res, Buffer.from(event.repeat(64)), 1024 * MIB);
      return true;
    },
    'huge-length': async (req, res, endpoint) => {
      if (endpoint !== 'chat/completions') return false;
      await drain(req);
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(10 * 1024 ** 3),
      });
      await pour(res, Buffer.alloc(MIB, 0x20), 64 * MIB);
      return true;
    },
    'huge-error-body': async (req, res, endpoint) => {
      if (endpoint !== 'chat/completions') return false;
      await drain(req);
      res.writeHead(500, { 'content-type': 'text/plain' });
      await pour(res, Buffer.alloc(MIB, 0x65), 100 * MIB);
      return true;
    },
    'huge-error': async (req, res, endpoint) => {
      if (endpoint !== 'chat/completions') return false;
      await drain(req);
      answerJson(
        res,
        500,
        JSON.stringify({
          error: { code: 'provider_request_failed', message: 'x'.repeat(1024 * 1024) },
        }),
      );
      return true;
    },
  });
  port = Number(new URL(hostile.origin).port);
});
// A case that failed while holding requests lets them go: the key's one budget is every case's.
afterEach(() => {
  for (const gate of Object.values(gates)) if (gate.peak > 0) gate.open();
});
afterAll(async () => {
  for (const gate of Object.values(gates)) gate.releaseAll();
  suite.write();
  await hostile?.close();
});

const ask = { model: MODEL, messages: [{ role: 'user' as const, content: 'hi' }] };

describe('hostile: bounded reads (13.1)', () => {
  const spec = (id: string, text: string, expectText: string, before: string) => ({
    id,
    area: 'bounded reads',
    case: text,
    expect: expectText,
    before,
  });
  suite.row(
    spec(
      'B-gzip-bomb',
      'gzip body expanding to 64 MiB (64 KB on the wire; the issue saw 2 GiB)',
      'typed error naming the limit, counted while decompressing; process alive',
      'process killed (Check failed: i::kMaxInt >= len)',
    ),
    async () => {
      const client = createGatewayClient({
        baseURL: hostile.url('gzip-bomb'),
        apiKey: KEY,
        maxRetries: 0,
        maxResponseBytes: 4 * MIB,
      });
      const error = await client.chat(ask).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'response_too_large' });
      expect((error as Error).message).toContain(`maxResponseBytes (${4 * MIB} bytes)`);
    },
  );
  suite.row(
    spec(
      'B-huge-line',
      'unterminated 40 MiB SSE line (the issue saw 400 MB)',
      'typed error naming the line limit',
      'heap exhausted',
    ),
    async () => {
      const client = createGatewayClient({
        baseURL: hostile.url('huge-line'),
        apiKey: KEY,
        maxRetries: 0,
      });
      const stream = await client.chatStream(ask);
      const error = await stream.result().catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'response_too_large' });
      expect((error as Error).message).toContain('SSE event limit');
      await client.budget.whenIdle();
      expect(client.budget.active).toBe(0);
    },
  );
  suite.row(
    spec(
      'B-endless',
      'endless valid stream, caller only iterates events',
      'memory bounded (no assembled text kept when asked); the assembled-answer limit is a typed error',
      'heap exhausted',
    ),
    async () => {
      const client = createGatewayClient({
        baseURL: hostile.url('endless'),
        apiKey: KEY,
        maxRetries: 0,
        maxResponseBytes: 8 * MIB,
      });
      // The caller only iterates: no copy of the answer is kept.
      const stream = await client.chatStream(ask, { assemble: false });
      let text = 0;
      const error = await (async () => {
        for await (const part of stream) if (part.type === 'text-delta') text += part.delta.length;
      })().catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'response_too_large' });
      expect((error as Error).message).toContain('in total');
      expect(text).toBeLessThanOrEqual(8 * MIB);
      await client.budget.whenIdle();
      expect(client.budget.active).toBe(0);
    },
  );
  suite.row(
    spec(
      'B-content-length',
      '10 GB Content-Length answer',
      'cut at the body limit with a typed error; memory bounded',
      'process grew 746 MB before the cut',
    ),
    async () => {
      const client = createGatewayClient({
        baseURL: hostile.url('huge-length'),
        apiKey: KEY,
        maxRetries: 0,
      });
      const error = await client.chat(ask).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'response_too_large' });
      expect((error as Error).message).toContain('Content-Length 10737418240');
    },
  );
  suite.row(
    spec(
      'B-error-body',
      '100 MiB error body',
      'bounded prefix kept (said so in the error)',
      'kept whole',
    ),
    async () => {
      const client = createGatewayClient({
        baseURL: hostile.url('huge-error-body'),
        apiKey: KEY,
        maxRetries: 0,
      });
      const error = (await client.chat(ask).catch((e: unknown) => e)) as {
        code: string;
        body: string;
        message: string;
      };
      expect(error.code).toBe('upstream_error');
      expect(error.body.length).toBeLessThan(65 * 1024 + 200);
      expect(error.body).toContain('maxErrorBodyBytes');
      expect(error.message.length).toBeLessThan(10_000);
    },
  );
  suite.row(
    spec(
      'B-error-message',
      '1 MB error message',
      'error.message bounded',
      'copied whole into error.message',
    ),
    async () => {
      const client = createGatewayClient({
        baseURL: hostile.url('huge-error'),
        apiKey: KEY,
        maxRetries: 0,
      });
      const error = await client.chat(ask).catch((e: unknown) => e);
      expect(isGatewayError(error)).toBe(true);
      expect((error as Error).message.length).toBeLessThan(10_000);
    },
  );
});

describe('hostile: one budget per (origin, key) (13.3)', () => {
  suite.row(
    {
      id: 'K-spelling',
      area: 'budget',
      case: 'clients on http://127.0.0.1:P/x/v1 and http://localhost:P/x/v1/ send 8 at once',
      expect: 'at most 4 in flight at the gateway; all 8 succeed',
      before: 'two budgets: 8 at once → 429s',
    },
    async () => {
      const gate = gates.spelling!;
      const slots = new SlotEvents();
      const a = createGatewayClient({
        baseURL: `http://127.0.0.1:${port}/spelling/v1`,
        apiKey: KEY,
        maxRetries: 0,
        onEvent: slots.onEvent,
      });
      const b = createGatewayClient({
        baseURL: `http://localhost:${port}/spelling/v1/`,
        apiKey: KEY,
        maxRetries: 0,
        onEvent: slots.onEvent,
      });
      const calls = [
        ...Array.from({ length: 4 }, () => a.chat(ask)),
        ...Array.from({ length: 4 }, () => b.chat(ask)),
      ];
      await gate.reached(4);
      // Every call has asked for a slot (their events): 4 got one, the other 4 wait in the one
      // budget both spellings share. With two budgets all 8 get one, and this fails at once.
      await slots.asked(8);
      expect(slots.dequeued).toBe(4);
      expect([a.budget, b.budget].map((x) => x.queued)).toEqual([4, 4]);
      expect(gate.inFlight).toBe(4);
      gate.open();
      await Promise.all(calls);
      expect(gate.peak).toBe(4);
    },
  );
  suite.row(
    {
      id: 'K-mixed',
      area: 'budget',
      case: 'a maxConcurrency: 8 client and a default client on one key',
      expect: 'never more than 4 in flight in total',
      before: 'the 8-client pushed the default one into 429s',
    },
    async () => {
      const gate = gates.mixed!;
      const url = hostile.url('mixed');
      const slots = new SlotEvents();
      const big = createGatewayClient({
        baseURL: url,
        apiKey: KEY,
        maxRetries: 0,
        maxConcurrency: 8,
        onEvent: slots.onEvent,
      });
      const small = createGatewayClient({
        baseURL: url,
        apiKey: KEY,
        maxRetries: 0,
        onEvent: slots.onEvent,
      });
      const calls = [
        ...Array.from({ length: 8 }, () => big.chat(ask)),
        ...Array.from({ length: 4 }, () => small.chat(ask)),
      ];
      await gate.reached(4);
      // Every call has asked for a slot (their events): 4 got one, the other 8 wait in the key's
      // one budget. Were the 8-client's limit the key's, more would get one, and this fails at once.
      await slots.asked(12);
      expect(slots.dequeued).toBe(4);
      expect([big.budget, small.budget].map((x) => x.queued)).toEqual([8, 8]);
      expect(gate.inFlight).toBe(4);
      gate.open();
      await Promise.all(calls);
      expect(gate.peak).toBe(4);
    },
  );
  suite.row(
    {
      id: 'K-head-of-line',
      area: 'budget',
      case: "a maxConcurrency: 1 client's backlog of 10 and a default client on one key",
      expect: "the default client's call runs while 3 slots are free (no head-of-line blocking)",
      before: 'waited seconds behind the backlog (strict FIFO across limits)',
    },
    async () => {
      const gate = gates.hol!;
      const url = hostile.url('hol');
      const one = createGatewayClient({
        baseURL: url,
        apiKey: KEY,
        maxRetries: 0,
        maxConcurrency: 1,
      });
      const other = createGatewayClient({ baseURL: url, apiKey: KEY, maxRetries: 0 });
      const backlog = Array.from({ length: 10 }, () => one.chat(ask));
      await gate.reached(1);
      const mine = other.chat(ask);
      // Deterministic: the default client's request reaches the gateway while the backlog's first is held.
      await gate.reached(2);
      gate.open();
      await Promise.all([mine, ...backlog]);
    },
  );
  suite.row(
    {
      id: 'K-catalog-abort',
      area: 'budget',
      case: 'a caller aborts during the shared GET /models look-up',
      expect:
        'that caller leaves at once; the shared request is cancelled only when no caller remains',
      before:
        "the look-up ignored the caller's signal and used the first caller's deadline for everyone",
    },
    async () => {
      const gate = gates.catalog!;
      const client = createGatewayClient({
        baseURL: hostile.url('catalog'),
        apiKey: KEY,
        maxRetries: 0,
      });
      const controller = new AbortController();
      const leaving = client.models({ signal: controller.signal });
      const staying = client.models();
      await gate.reached(1);
      controller.abort();
      // Rejected while the shared GET /models is still held at the gateway.
      await expect(leaving).rejects.toMatchObject({ code: 'aborted' });
      expect(gate.inFlight).toBe(1);
      gate.releaseAll();
      await expect(staying).resolves.toBeInstanceOf(Array);
    },
  );
});

describe('hostile: client arguments (13.3/13.4)', () => {
  const spec = (id: string, text: string, expectText: string, before: string) => ({
    id,
    area: 'arguments',
    case: text,
    expect: expectText,
    before,
  });
  suite.row(
    spec(
      'C-timeout-nan',
      "per-call timeoutMs: NaN / '100'",
      'GatewayError invalid_request_error naming timeoutMs',
      'NaN disabled the deadline; "100" was concatenated',
    ),
    async () => {
      const client = createGatewayClient({ baseURL: hostile.url('args'), apiKey: KEY });
      for (const timeoutMs of [Number.NaN, '100']) {
        const error = await client
          .chat(ask, { timeoutMs: timeoutMs as never })
          .catch((e: unknown) => e);
        expect(error).toMatchObject({ code: 'invalid_request_error', field: 'timeoutMs' });
      }
    },
  );
  suite.row(
    spec('C-signal', 'per-call signal: {}', 'GatewayError invalid_request_error', 'raw TypeError'),
    async () => {
      const client = createGatewayClient({ baseURL: hostile.url('args'), apiKey: KEY });
      const error = await client.chat(ask, { signal: {} as never }).catch((e: unknown) => e);
      expect(isGatewayError(error) && error.code).toBe('invalid_request_error');
    },
  );
  suite.row(
    spec(
      'C-null',
      'createGatewayClient(null)',
      'GatewayError configuration_error',
      'raw TypeError',
    ),
    async () => {
      let error: unknown;
      try {
        createGatewayClient(null as never);
      } catch (e) {
        error = e;
      }
      expect(isGatewayError(error) && error.code).toBe('configuration_error');
    },
  );
  suite.row(
    spec(
      'C-deadline',
      'timeoutMs above 2³¹−1 ms',
      'clamped: no timer loop, no TimeoutOverflowWarning',
      'timer re-armed every millisecond (13–26 % of a core)',
    ),
    async () => {
      const warnings: string[] = [];
      const onWarning = (warning: Error) => warnings.push(warning.name);
      process.on('warning', onWarning);
      const client = createGatewayClient({
        baseURL: hostile.url('args'),
        apiKey: KEY,
        timeoutMs: 2 ** 40,
      });
      await client.chat(ask);
      // Node emits a TimeoutOverflowWarning on the next tick after the timer is set: one turn of
      // the event loop delivers any (the timer was set when the call began).
      await new Promise((resolve) => setImmediate(resolve));
      process.off('warning', onWarning);
      expect(warnings).not.toContain('TimeoutOverflowWarning');
    },
  );
  suite.row(
    spec(
      'C-version-case',
      'baseURL ending in /V1',
      'requests go to …/V1/chat/completions, not …/V1/v1/…',
      '…/V1/v1',
    ),
    async () => {
      const client = createGatewayClient({ baseURL: `${hostile.origin}/version/V1`, apiKey: KEY });
      await client.chat(ask).catch(() => undefined);
      expect(hostile.seen('version')).not.toContain('v1/chat/completions');
    },
  );
  suite.row(
    spec(
      'C-baseurl-key',
      'the key pasted into baseURL',
      'configuration_error without the key in its message',
      'the message quoted the raw value',
    ),
    async () => {
      let error: unknown;
      try {
        createGatewayClient({ baseURL: `not a url ${KEY}`, apiKey: KEY });
      } catch (e) {
        error = e;
      }
      if (error === undefined)
        error = await createGatewayClient({ baseURL: `not a url ${KEY}`, apiKey: KEY })
          .chat(ask)
          .catch((e: unknown) => e);
      expect(isGatewayError(error) && error.code).toBe('configuration_error');
      expect(leaksIn(views(error), KEY)).toEqual([]);
    },
  );
});

describe('hostile: choices (13.4)', () => {
  suite.row(
    {
      id: 'C-empty-choices',
      area: 'answers',
      case: '{"choices": []} with 200',
      expect: 'invalid_response in core and the AI SDK (not text "" / finishReason other)',
      before: 'text "", finishReason other',
    },
    async () => {
      const client = createGatewayClient({
        baseURL: hostile.url('empty-choices'),
        apiKey: KEY,
        maxRetries: 0,
      });
      const error = await client.chat(ask).catch((e: unknown) => e);
      expect(isGatewayError(error) && error.code).toBe('invalid_response');
      const aiError = await generateText({
        model: createGateway({ baseURL: hostile.url('empty-choices'), apiKey: KEY })(MODEL),
        prompt: 'hi',
        maxRetries: 0,
      }).catch((e: unknown) => e);
      expect(aiError).toBeInstanceOf(Error);
    },
  );
  suite.row(
    {
      id: 'C-choice-one',
      area: 'answers',
      case: 'a stream that answers only on choice 1',
      expect: 'its lone choice read as the answer in core (n unset), as the same answer whole',
      before: 'empty success',
    },
    async () => {
      const client = createGatewayClient({
        baseURL: hostile.url('choice-one-only'),
        apiKey: KEY,
        maxRetries: 0,
      });
      const answer = await (await client.chatStream(ask)).result();
      expect(answer).toMatchObject({ text: 'hi', finishReason: 'stop' });
      // (Asked for two choices, a stream without choice 0 is still a typed error.)
      const error = await client
        .chatStream({ ...ask, n: 2 })
        .then((s) => s.result())
        .catch((e: unknown) => e);
      expect(isGatewayError(error)).toBe(true);
    },
  );
});
