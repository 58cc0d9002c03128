import { describe, expect, it } from 'vitest';
import { type FaultRule, faultRuleProblem, parseFaultHeader, takeFault } from './faults';

const facts = { endpoint: 'chat' as const, apiKey: 'k', model: 'm', streaming: false };

describe('parseFaultHeader', () => {
  it('reads the name and parameters with defaults', () => {
    expect(parseFaultHeader('rate_limit')).toEqual({
      fault: 'rate_limit',
      retryAfter: 1,
      ms: 2000,
      afterChunks: 2,
      intervalMs: 1000,
    });
    expect(parseFaultHeader(' stall_stream ; afterChunks=5; ms=10 ')).toMatchObject({
      afterChunks: 5,
      ms: 10,
    });
  });

  it('returns a message for unknown names and parameters', () => {
    expect(parseFaultHeader('oops')).toMatch(/Unknown X-Emulator-Fault 'oops'/);
    expect(parseFaultHeader('slow_headers; ms=-1')).toMatch(/Invalid/);
  });

  it('reads the stall faults with ms and afterChunks', () => {
    expect(parseFaultHeader('stall_first_chunk; ms=300')).toMatchObject({
      fault: 'stall_first_chunk',
      ms: 300,
    });
    expect(parseFaultHeader('stall_stream; afterChunks=4; ms=50')).toMatchObject({
      fault: 'stall_stream',
      afterChunks: 4,
      ms: 50,
    });
    expect(parseFaultHeader('model_offline')).toMatchObject({ fault: 'model_offline' });
  });

  it('refuses the counting options every and afterRequests in a one-request header', () => {
    expect(parseFaultHeader('stall_first_chunk; every=10')).toMatch(
      /'every' counts requests or time, so it only works in a fault rule/,
    );
    expect(parseFaultHeader('model_offline; afterRequests=3')).toMatch(/'afterRequests'/);
    expect(parseFaultHeader('bad_gateway; forMs=1000')).toMatch(/'forMs' counts requests or time/);
    expect(parseFaultHeader('bad_gateway; afterMs=1000')).toMatch(/'afterMs'/);
  });

  it('reads intervalMs for the keep-alive and empty-delta faults (at least 1)', () => {
    expect(parseFaultHeader('keepalive_stream; intervalMs=50; afterChunks=0')).toMatchObject({
      fault: 'keepalive_stream',
      intervalMs: 50,
      afterChunks: 0,
    });
    expect(parseFaultHeader('empty_delta_stream; intervalMs=0')).toMatchObject({ intervalMs: 1 });
  });
});

describe('faultRuleProblem', () => {
  it.each([
    [{ fault: 'bad_gatway' }, /fault "bad_gatway" is unknown — did you mean bad_gateway\?/],
    [
      { fault: 'bad_gateway', afterChunk: 3 },
      /unknown field afterChunk — did you mean afterChunks\?/,
    ],
    [{ fault: 'bad_gateway', every: 0 }, /every must be a whole number ≥ 1, got 0/],
    [{ fault: 'bad_gateway', every: 2.5 }, /every must be a whole number ≥ 1, got 2.5/],
    [{ fault: 'bad_gateway', times: 1.5 }, /times must be a whole number ≥ 0/],
    [{ fault: 'bad_gateway', forMs: -1 }, /forMs must be a number ≥ 0/],
    [
      { fault: 'bad_gateway', endpoint: 'chats' },
      /endpoint "chats" is unknown — did you mean chat\?/,
    ],
    [{ fault: 'bad_gateway', model: 3 }, /model must be a string/],
    ['bad_gateway', /must be an object/],
  ])('refuses %j', (rule, message) => {
    expect(faultRuleProblem(rule)).toMatch(message);
  });

  it('accepts every field (each parameter with a fault that uses it)', () => {
    expect(faultRuleProblem({ fault: 'rate_limit', retryAfter: 1 })).toBeUndefined();
    expect(faultRuleProblem({ fault: 'stall_stream', ms: 1 })).toBeUndefined();
    const rule: Required<Omit<FaultRule, 'retryAfter' | 'ms'>> = {
      fault: 'keepalive_stream',
      endpoint: 'chat',
      model: 'm',
      apiKey: 'k',
      times: 1,
      afterChunks: 1,
      intervalMs: 1,
      every: 1,
      afterRequests: 1,
      afterMs: 1,
      forMs: 1,
    };
    expect(faultRuleProblem(rule)).toBeUndefined();
  });
});

describe('takeFault', () => {
  it('counts down times and drops the rule', () => {
    const rules: FaultRule[] = [{ fault: 'bad_gateway', times: 2 }];
    expect(takeFault([rules], facts)?.fault).toBe('bad_gateway');
    expect(rules[0]!.times).toBe(1);
    expect(takeFault([rules], facts)?.fault).toBe('bad_gateway');
    expect(rules).toHaveLength(0);
    expect(takeFault([rules], facts)).toBeUndefined();
  });

  it('skips stream faults for requests that do not stream, without using them up', () => {
    const rules: FaultRule[] = [{ fault: 'no_finish', times: 1 }];
    expect(takeFault([rules], facts)).toBeUndefined();
    expect(takeFault([rules], { ...facts, streaming: true })?.fault).toBe('no_finish');
  });

  it('every: N applies to the Nth, 2Nth, … matching request only', () => {
    const rules: FaultRule[] = [{ fault: 'bad_gateway', every: 3 }];
    const got = Array.from({ length: 7 }, () => takeFault([rules], facts)?.fault);
    expect(got).toEqual([
      undefined,
      undefined,
      'bad_gateway',
      undefined,
      undefined,
      'bad_gateway',
      undefined,
    ]);
  });

  it('afterRequests: N lets N matching requests pass, then applies (with every, counted after)', () => {
    const rules: FaultRule[] = [{ fault: 'bad_gateway', afterRequests: 2, every: 2 }];
    const got = Array.from({ length: 6 }, () => takeFault([rules], facts)?.fault);
    expect(got).toEqual([undefined, undefined, undefined, 'bad_gateway', undefined, 'bad_gateway']);
  });

  it('counts only the requests a rule matches, and counts them whichever rule applies', () => {
    const stall: FaultRule = { fault: 'stall_first_chunk', model: 'm', every: 2 };
    const busy: FaultRule = { fault: 'model_busy', model: 'm', times: 1 };
    const rules = [busy, stall];
    expect(takeFault([rules], facts)?.fault).toBe('model_busy'); // stall counts 1
    expect(takeFault([rules], { ...facts, model: 'other' })).toBeUndefined(); // not counted
    expect(takeFault([rules], facts)?.fault).toBe('stall_first_chunk'); // stall counts 2
    expect(takeFault([rules], facts)).toBeUndefined();
  });

  it('model_offline and stall_first_chunk only match chat requests', () => {
    const rules: FaultRule[] = [{ fault: 'model_offline' }, { fault: 'stall_first_chunk' }];
    expect(takeFault([rules], { ...facts, endpoint: 'embeddings' })).toBeUndefined();
    expect(rules).toHaveLength(2);
  });

  it('a model_offline rule is spent once it applies (the model stays offline)', () => {
    const rules: FaultRule[] = [{ fault: 'model_offline', afterRequests: 1 }];
    expect(takeFault([rules], facts)).toBeUndefined();
    expect(takeFault([rules], facts)?.fault).toBe('model_offline');
    expect(rules).toHaveLength(0);
  });
});
