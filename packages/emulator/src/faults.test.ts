import { describe, expect, it } from 'vitest';
import { type FaultRule, parseFaultHeader, takeFault } from './faults';

const facts = { endpoint: 'chat' as const, apiKey: 'k', model: 'm', streaming: false };

describe('parseFaultHeader', () => {
  it('reads the name and parameters with defaults', () => {
    expect(parseFaultHeader('rate_limit')).toEqual({
      fault: 'rate_limit',
      retryAfter: 1,
      ms: 2000,
      afterChunks: 2,
    });
    expect(parseFaultHeader(' stream_cut ; afterChunks=5; ms=10 ')).toMatchObject({
      afterChunks: 5,
      ms: 10,
    });
  });

  it('returns a message for unknown names and parameters', () => {
    expect(parseFaultHeader('oops')).toMatch(/Unknown X-Emulator-Fault 'oops'/);
    expect(parseFaultHeader('slow_headers; ms=-1')).toMatch(/Invalid/);
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
});
