import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// http/ sends requests and knows HTTP only (CONTRIBUTING.md, `http/`): which model an attempt goes
// to, how many requests a model has in flight, a hedge's numbering and its slot are the steering
// module's, given to the transport as an `AttemptPolicy` and data. Nothing in http/ imports
// steering/, and no word of steering is in its code or comments. transport.ts stays readable in
// one sitting.
const http = join(import.meta.dirname, '..', 'src', 'http');
const files = readdirSync(http).filter(
  (name) => name.endsWith('.ts') && !name.endsWith('.test.ts'),
);
const STEERING_WORDS = /hedg|per[- ]model|model[- ]inflight|steer|fallback|failover|breaker|walk/i;
const MAX_TRANSPORT_LINES = 300;

describe('http/ holds no steering concept', () => {
  it('finds the transport', () => {
    expect(files).toContain('transport.ts');
  });

  it('imports nothing from steering/ (static, dynamic or type-only)', () => {
    const importing = files.filter((name) =>
      /(?:\bfrom|\bimport\()\s*'\.\.\/steering\//.test(readFileSync(join(http, name), 'utf8')),
    );
    expect(importing).toEqual([]);
  });

  it('has no word of steering (hedge, per-model, fallback, failover, breaker, walk)', () => {
    const found = files.flatMap((name) =>
      readFileSync(join(http, name), 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          STEERING_WORDS.test(line) ? [`${name}:${i + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(found).toEqual([]);
  });

  it('sends data: the request types declare no callback (the policy is told, by its methods)', () => {
    const declared = (file: string, name: string) => {
      const text = readFileSync(join(http, file), 'utf8');
      const start = text.indexOf(`export interface ${name} {`);
      expect(start, name).toBeGreaterThan(-1);
      return text.slice(start, text.indexOf('\n}\n', start));
    };
    for (const [file, name] of [
      ['request-types.ts', 'RequestSpec'],
      ['attempt-policy.ts', 'AttemptRequest'],
      ['send-once.ts', 'Sending'],
    ] as const) {
      const fields = declared(file, name)
        .split('\n')
        .filter((line) => !/^\s*(\/\*\*|\*)/.test(line));
      // (A function type written out, or taken from a hook's type: `StreamHeadersHook['onHeaders']`.)
      expect(
        fields.filter((line) => /=>|\w\s*\(|\[['"]on[A-Z]|Hook\b/.test(line)),
        name,
      ).toEqual([]);
    }
  });

  it(`keeps transport.ts within ${MAX_TRANSPORT_LINES} lines`, () => {
    const lines = readFileSync(join(http, 'transport.ts'), 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(MAX_TRANSPORT_LINES);
  });
});
