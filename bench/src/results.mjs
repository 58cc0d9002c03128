/**
 * The stored results of the suites (bench/results/<suite>.json) and their targets: one file per
 * suite, written by a full run of that suite, read by the page generator (page.mjs) and by the
 * page's test. Pure: no suite code is loaded here. The format is described in bench/README.md.
 *
 * A target is `{ id, text, checks, context }`: `checks` are the figures that must hold, each
 * `{ what, value, op, limit, unit }`; the target is met when every check holds, and "not
 * measured" when a value is missing. Statuses are computed here from the numbers, never typed.
 * `context` figures are shown beside the measured ones but not checked (e.g. the raw floor).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Bumped when a stored file's shape changes in a way the generator must know about. */
export const RESULT_FORMAT = 1;
export const ROOT_DIR = fileURLToPath(new URL('../..', import.meta.url));
export const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));
export const RESULTS_DIR = fileURLToPath(new URL('../results/', import.meta.url));

const OPS = {
  '<=': { sign: '≤', holds: (v, l) => v <= l },
  '<': { sign: '<', holds: (v, l) => v < l },
  '>=': { sign: '≥', holds: (v, l) => v >= l },
  '>': { sign: '>', holds: (v, l) => v > l },
  '=': { sign: '=', holds: (v, l) => v === l },
};
const UNITS = ['ratio', 'share', 'bytes', 'ms', 'count', 'number'];

/** A figure that must hold: `value op limit`, in `unit` (ratio, share, bytes, ms, count, number). */
export function check(what, value, op, limit, unit) {
  if (!OPS[op]) throw new Error(`unknown operator ${op}`);
  if (!UNITS.includes(unit)) throw new Error(`unknown unit ${unit}`);
  return { what, value: Number.isFinite(value) ? value : null, op, limit, unit };
}

/** A figure shown beside a target's checks, not checked. */
export function context(what, value, unit) {
  return { what, value: Number.isFinite(value) ? value : null, unit };
}

/**
 * A target: `id` unique within its suite, `text` what is measured (no figures: the limits are in
 * the checks, so each is stated once), `checks` what must hold. `met` is computed from the checks.
 */
export function target(id, text, checks, contextFigures = []) {
  const t = { id, text, checks, context: contextFigures };
  return { ...t, met: evaluateTarget(t) };
}

/** A target that could not be measured (a missing server, a feature core lacks): no checks. */
export function unmeasuredTarget(id, text, reason) {
  return { id, text, checks: [], context: [], reason, met: undefined };
}

/** met: every check holds; missed: one does not; undefined: no checks, or a value is missing. */
export function evaluateTarget({ checks }) {
  if (checks.length === 0 || checks.some((c) => c.value === null || c.value === undefined))
    return undefined;
  return checks.every((c) => OPS[c.op].holds(c.value, c.limit));
}

export function statusOf(met) {
  return met === undefined ? 'not measured' : met ? 'met' : 'missed';
}

const trim = (x, digits) => String(Number(x.toFixed(digits)));
const thousands = (n) => Math.round(n).toLocaleString('en-US').replaceAll(',', ' ');

/** A measured value as the page shows it. */
export function formatValue(value, unit) {
  if (value === null || value === undefined) return 'not measured';
  switch (unit) {
    case 'ratio':
      return `${value.toFixed(2)}×`;
    case 'share':
      return `${(value * 100).toFixed(1)} %`;
    case 'bytes':
      if (value >= 1024 * 1024) return `${(value / 1024 / 1024).toFixed(1)} MB`;
      return `${(value / 1024).toFixed(1)} KB (${thousands(value)} B)`;
    case 'ms':
      return value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`;
    case 'count':
      return thousands(value);
    default:
      return value.toFixed(2);
  }
}

/** A limit as the page shows it (no trailing zeros: 1.1×, 10 KB, 100 %). */
export function formatLimit(limit, unit) {
  switch (unit) {
    case 'ratio':
      return `${trim(limit, 2)}×`;
    case 'share':
      return `${trim(limit * 100, 1)} %`;
    case 'bytes':
      if (limit >= 1024 * 1024) return `${trim(limit / 1024 / 1024, 1)} MB`;
      return `${trim(limit / 1024, 1)} KB`;
    case 'ms':
      return `${trim(limit, 0)} ms`;
    case 'count':
      return thousands(limit);
    default:
      return trim(limit, 2);
  }
}

/** "vs ideal ≤ 1.1×; 429s = 0": what must hold. */
export function describeChecks(checks) {
  return checks.map((c) => `${c.what} ${OPS[c.op].sign} ${formatLimit(c.limit, c.unit)}`);
}

/** "vs ideal 1.09×; 429s 0 (raw floor vs ideal 1.08×)": what was measured. */
export function describeMeasured(t) {
  const measured = t.checks.map((c) => `${c.what} ${formatValue(c.value, c.unit)}`).join('; ');
  const shown = (t.context ?? []).map((c) => `${c.what} ${formatValue(c.value, c.unit)}`);
  if (t.checks.length === 0) return t.reason ?? 'not measured';
  return shown.length > 0 ? `${measured} (${shown.join('; ')})` : measured;
}

function git(...args) {
  try {
    return execFileSync('git', args, { cwd: ROOT_DIR, encoding: 'utf8' }).trim();
  } catch {
    return '?';
  }
}

function versionOf(name) {
  try {
    return JSON.parse(readFileSync(`${BENCH_DIR}node_modules/${name}/package.json`, 'utf8'))
      .version;
  } catch {
    return '?';
  }
}

export const ANCHORS = [
  'ai',
  '@ai-sdk/openai-compatible',
  '@langchain/core',
  '@langchain/openai',
  'openai',
  'eventsource-parser',
  'esbuild',
  'redis',
];

const loadNow = () => os.loadavg().map((x) => Number(x.toFixed(2)));

/**
 * What a run is: when it started, how it was started, and the machine. One per process
 * (`pnpm bench` runs every suite in one process; a suite run alone is a run of its own).
 */
export function describeRun(mode) {
  const script = relative(ROOT_DIR, process.argv[1] ?? '');
  return {
    id: new Date().toISOString(),
    command: ['node', script, ...process.argv.slice(2)].join(' '),
    mode,
    machine: {
      node: process.version,
      cpu: `${os.cpus()[0]?.model ?? '?'} × ${os.cpus().length}`,
      memory: `${Math.round(os.totalmem() / 1024 ** 3)} GiB`,
      os: `${os.type()} ${os.release()} ${os.arch()}`,
    },
    versions: Object.fromEntries(ANCHORS.map((name) => [name, versionOf(name)])),
  };
}

/**
 * Watches one suite's run: the commit and uncommitted changes at its start, the load average
 * (sampled every 5 s: its 1-minute figure at the start, its peak and at the end) and its duration.
 * `finish()` returns what goes into the stored result beside the suite's own output.
 */
export function watchSuite() {
  const startedAt = new Date();
  const started = performance.now();
  const start = loadNow();
  let peak = start[0];
  const timer = setInterval(() => {
    peak = Math.max(peak, loadNow()[0]);
  }, 5000);
  timer.unref();
  // Code that is not committed changes what is measured: say which files (our packages and the
  // suites; results and the page are written by the run itself).
  const listed = (...args) =>
    git(...args, '--', 'packages', 'bench/src')
      .split('\n')
      .filter((path) => path.length > 0 && path !== '?');
  const uncommitted = [
    ...new Set([
      ...listed('diff', '--name-only', 'HEAD'),
      ...listed('ls-files', '--others', '--exclude-standard'),
    ]),
  ].sort();
  const commit = git('rev-parse', '--short', 'HEAD');
  return {
    finish() {
      clearInterval(timer);
      const end = loadNow();
      return {
        measuredAt: startedAt.toISOString(),
        durationS: Math.round((performance.now() - started) / 1000),
        commit,
        uncommitted,
        load: { start, peak1m: Math.max(peak, end[0]), end },
      };
    },
  };
}

/** The stored file of one suite's run. */
export function makeStoredResult({ suite, title, run, watched, result }) {
  return {
    format: RESULT_FORMAT,
    suite,
    title,
    measuredAt: watched.measuredAt,
    durationS: watched.durationS,
    commit: watched.commit,
    uncommitted: watched.uncommitted,
    load: watched.load,
    run: { id: run.id, command: run.command, mode: run.mode },
    machine: run.machine,
    versions: run.versions,
    parameters: result.parameters ?? {},
    targets: result.targets.map((t) => ({ ...t, met: evaluateTarget(t) })),
    sections: result.sections.map(({ title: sectionTitle, rows, note }) => ({
      title: sectionTitle,
      rows,
      ...(note ? { note } : {}),
    })),
    data: result.data ?? {},
  };
}

export function resultFile(suite, dir = RESULTS_DIR) {
  return `${dir}${suite}.json`;
}

export function writeStoredResult(stored, dir = RESULTS_DIR) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(resultFile(stored.suite, dir), `${JSON.stringify(stored, null, 2)}\n`);
}

/** Every stored result in `dir`, by suite id. */
export function readStoredResults(dir = RESULTS_DIR) {
  const stored = {};
  if (!existsSync(dir)) return stored;
  for (const name of readdirSync(dir)) {
    if (!/^B\d+s?\.json$/.test(name)) continue;
    const result = JSON.parse(readFileSync(`${dir}${name}`, 'utf8'));
    if (result.format !== RESULT_FORMAT)
      throw new Error(`${name}: format ${result.format}, this generator reads ${RESULT_FORMAT}`);
    stored[result.suite] = result;
  }
  return stored;
}
