import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as missedModule from '../src/missed-targets.mjs';
import * as pageModule from '../src/page.mjs';
import * as resultsModule from '../src/results.mjs';
import * as suitesModule from '../src/suites.mjs';

// The results section of BENCHMARKS.md against the stored results in bench/results/: the page
// must say what the stored numbers say, each target once, and no measured figure may live
// outside the generated section (where it could disagree with it). Reads files only; runs no
// suite.

interface Check {
  what: string;
  value: number | null;
  op: string;
  limit: number;
  unit: string;
}
interface Target {
  id: string;
  text: string;
  checks: Check[];
  context: { what: string; value: number | null; unit: string }[];
  met?: boolean;
  reason?: string;
}
interface Stored {
  format: number;
  suite: string;
  title: string;
  measuredAt: string;
  durationS: number;
  commit: string;
  uncommitted: string[];
  load: { start: number[]; peak1m: number; end: number[] };
  run: { id: string; command: string; mode: string };
  machine: Record<string, string>;
  versions: Record<string, string>;
  parameters: Record<string, unknown>;
  targets: Target[];
  sections: { title: string; rows: Record<string, unknown>[]; note?: string }[];
  data: unknown;
}
const page = pageModule as unknown as {
  missedTargets: (stored: Record<string, Stored>) => { suite: string; target: Target }[];
  PAGE_FILE: string;
  NOT_MEASURED_YET: string;
  renderResults: (stored: Record<string, Stored>) => string;
  extractBlock: (page: string) => string;
};
const results = resultsModule as unknown as {
  readStoredResults: () => Record<string, Stored>;
  formatValue: (value: number | null, unit: string) => string;
  formatLimit: (limit: number, unit: string) => string;
};
const { SUITES } = suitesModule as unknown as {
  SUITES: { id: string; title: string; load?: unknown }[];
};

/** The operators, written again here: a status on the page must follow from the numbers. */
const holds: Record<string, (value: number, limit: number) => boolean> = {
  '<=': (v, l) => v <= l,
  '<': (v, l) => v < l,
  '>=': (v, l) => v >= l,
  '>': (v, l) => v > l,
  '=': (v, l) => v === l,
};
function expectedStatus(t: Target): 'met' | 'missed' | 'not measured' {
  if (t.checks.length === 0 || t.checks.some((c) => c.value === null)) return 'not measured';
  return t.checks.every((c) => holds[c.op]?.(c.value as number, c.limit)) ? 'met' : 'missed';
}

const stored = results.readStoredResults();
const text = readFileSync(page.PAGE_FILE, 'utf8');
const block = page.extractBlock(text);
const outside = text.replace(block, '');

/** The rows of the page's Targets table: `[suite, target, must hold, measured, status]`. */
function targetRows(): string[][] {
  const start = block.indexOf('### Targets');
  const lines = block.slice(start).split('\n').slice(2);
  const rows: string[][] = [];
  for (const line of lines.slice(2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .trim()
        .replace(/^\|/, '')
        .replace(/\|$/, '')
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim().replaceAll('\\|', '|')),
    );
  }
  return rows;
}

const { MISSED_TARGETS } = missedModule as unknown as {
  MISSED_TARGETS: Record<string, { since: string; why: string; plan: string }>;
};

describe('BENCHMARKS.md results (generated from bench/results/)', () => {
  it('gives every missed target a dated reason and a plan, and no entry to a target not missed', () => {
    const missed = page.missedTargets(stored).map(({ target }) => target.id);
    for (const id of missed) {
      const entry = MISSED_TARGETS[id];
      expect(
        entry,
        `${id} is missed: bench/src/missed-targets.mjs has no entry for it`,
      ).toBeDefined();
      expect(Number.isNaN(Date.parse(entry?.since ?? '')), `${id} since`).toBe(false);
      expect(entry?.why.length, `${id} why`).toBeGreaterThan(0);
      expect(entry?.plan.length, `${id} plan`).toBeGreaterThan(0);
    }
    for (const id of Object.keys(MISSED_TARGETS)) {
      expect(missed, `${id} has an entry but no stored run misses it`).toContain(id);
    }
  });

  it('has a stored result for every suite that exists, each dated, with its commit and run', () => {
    for (const suite of SUITES.filter((s) => s.load)) {
      const r = stored[suite.id];
      expect(
        r,
        `${suite.id}: no bench/results/${suite.id}.json (run it with --store, or pnpm bench)`,
      ).toBeDefined();
      if (!r) continue;
      expect(Number.isNaN(Date.parse(r.measuredAt)), `${suite.id} measuredAt`).toBe(false);
      expect(r.commit, `${suite.id} commit`).toMatch(/^[0-9a-f]{7,40}$/);
      expect(Number.isNaN(Date.parse(r.run.id)), `${suite.id} run`).toBe(false);
      expect(r.run.mode, `${suite.id}: a quick run is never stored`).toBe('full');
      expect(r.load.start.length, `${suite.id} load`).toBe(3);
      expect(r.targets.length, `${suite.id} targets`).toBeGreaterThan(0);
    }
  });

  it('stores statuses that follow from the stored numbers', () => {
    for (const r of Object.values(stored)) {
      for (const t of r.targets) {
        const status = expectedStatus(t);
        expect(
          t.met === undefined ? 'not measured' : t.met ? 'met' : 'missed',
          `${r.suite} ${t.id}`,
        ).toBe(status);
      }
    }
  });

  it('is exactly what the generator renders from the stored results', () => {
    // Fails when the page was edited by hand or a stored result changed without regenerating
    // it (node bench/src/page.mjs).
    expect(block).toBe(page.renderResults(stored));
  });

  it('states each target once, with the limits, values and status of its stored numbers', () => {
    const rows = targetRows();
    for (const r of Object.values(stored)) {
      for (const t of r.targets) {
        const matching = rows.filter((row) => row[0] === r.suite && row[1] === t.text);
        expect(matching, `${r.suite} "${t.text}" rows`).toHaveLength(1);
        const [, , mustHold, measured, status] = matching[0] ?? [];
        expect(status?.replaceAll('*', ''), `${r.suite} ${t.id} status`).toBe(expectedStatus(t));
        for (const c of t.checks) {
          expect(mustHold, `${r.suite} ${t.id} limit`).toContain(
            results.formatLimit(c.limit, c.unit),
          );
          expect(measured, `${r.suite} ${t.id} value`).toContain(
            `${c.what} ${results.formatValue(c.value, c.unit)}`,
          );
        }
        // Nowhere else on the page.
        expect(text.split(t.text).length - 1, `${r.suite} "${t.text}" on the page`).toBe(1);
      }
    }
    // One status per row, and no row whose target is not stored (except the suites not measured).
    const known = new Set(
      Object.values(stored).flatMap((r) => r.targets.map((t) => `${r.suite}\u0000${t.text}`)),
    );
    for (const row of rows) {
      if (row[4] === page.NOT_MEASURED_YET) {
        expect(stored[row[0] as string], `${row[0]} is stored but shown not measured`).toBe(
          undefined,
        );
        continue;
      }
      expect(known.has(`${row[0]}\u0000${row[1]}`), `row ${row.join(' | ')}`).toBe(true);
    }
  });

  it('shows a suite without a stored result (B10 until its suite lands) as not measured yet', () => {
    const rows = targetRows();
    for (const suite of SUITES.filter((s) => !stored[s.id])) {
      expect(rows.find((row) => row[0] === suite.id)?.[4]).toBe(page.NOT_MEASURED_YET);
      expect(block).toContain(`### ${suite.id} — ${suite.title}\n\nNot measured yet`);
    }
  });

  it('keeps measured figures inside the generated section only', () => {
    // Ratios, times per call, rates, sizes and shares are what the suites measure; outside the
    // section they would be a second copy that can disagree with it (dated history lives in
    // bench/HISTORY.md). Parameters of the method (50 ms latency, a 100 MB stream) are allowed.
    const measured =
      /\d(?:[\d.,\u202f ]*\d)?\s?(?:×|µs|k\/s|M\/s|KB|kB|%)|\d[\d\u202f ]*\d B\b|\b(?:met|missed)\b\s*\(/g;
    const found = [...outside.matchAll(measured)].map((m) => m[0]);
    expect(found, 'measured figures outside the results section').toEqual([]);
  });
});

describe('the page generator', () => {
  // A result in the stored format of a suite that does not exist yet (B10), with made-up
  // numbers: the generator summarises it as it does B9's, status from its checks.
  const b10: Stored = {
    format: 1,
    suite: 'B10',
    title: 'hedged first chunks on a heavy-tailed pool',
    measuredAt: '2026-12-01T10:00:00.000Z',
    durationS: 400,
    commit: '0123abc',
    uncommitted: ['packages/core/src/x.ts'],
    load: { start: [1, 1, 1], peak1m: 2.5, end: [1, 1, 1] },
    run: {
      id: '2026-12-01T09:59:00.000Z',
      command: 'node bench/src/b10.mjs --store',
      mode: 'full',
    },
    machine: { node: 'v22', cpu: 'cpu × 2', memory: '24 GiB', os: 'Linux' },
    versions: { ai: '7' },
    parameters: { total: 300 },
    targets: [
      {
        id: 'B10.hedge',
        text: 'ours with hedged first chunks on the heavy-tailed pool',
        checks: [
          { what: 'p99 first chunk vs pool median', value: 2.4, op: '<=', limit: 3, unit: 'ratio' },
          { what: 'extra requests', value: 0.12, op: '<=', limit: 0.1, unit: 'share' },
        ],
        context: [],
        met: false,
      },
    ],
    sections: [{ title: 'B10 hedged', rows: [{ case: 'ours', p99: '120 ms' }] }],
    data: {},
  };

  it('summarises a stored B10 result like any other, its status computed from the checks', () => {
    const rendered = page.renderResults({ ...stored, B10: b10 });
    expect(rendered).toContain(
      '| B10 | ours with hedged first chunks on the heavy-tailed pool | p99 first chunk vs pool median ≤ 3×; extra requests ≤ 10 % | p99 first chunk vs pool median 2.40×; extra requests 12.0 % | **missed** |',
    );
    expect(rendered).toContain('#### B10 hedged');
    expect(rendered).toContain('0123abc + uncommitted changes in packages/core (1 file)');
    expect(rendered).not.toContain(
      `B10 hedged first chunks on a heavy-tailed pool | ${page.NOT_MEASURED_YET}`,
    );
  });

  it('refuses a stored result of a suite it does not list', () => {
    expect(() => page.renderResults({ ...stored, B99: { ...b10, suite: 'B99' } })).toThrow(/B99/);
  });
});
