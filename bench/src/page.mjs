/**
 * The page generator: renders BENCHMARKS.md's results section (between its `results:start` and
 * `results:end` markers) from the stored results in bench/results/, one file per suite, each with
 * the date, commit and load of the run that measured it. Suites listed in suites.mjs without a
 * stored result show "not measured yet".
 *
 *   node bench/src/page.mjs           rewrite the section from the stored results
 *   node bench/src/page.mjs --check   exit 1 when the section is not what the stored results give
 *
 * A full `pnpm bench` stores every suite it runs and then does the same. The output depends only
 * on the stored files (no clock, no machine), so the page's test can render it again and compare.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MISSED_TARGETS } from './missed-targets.mjs';
import {
  describeChecks,
  describeMeasured,
  evaluateTarget,
  ROOT_DIR,
  readStoredResults,
  statusOf,
} from './results.mjs';
import { SUITES } from './suites.mjs';

export const PAGE_FILE = `${ROOT_DIR}BENCHMARKS.md`;
export const START_MARKER = '<!-- results:start -->';
export const END_MARKER = '<!-- results:end -->';
export const NOT_MEASURED_YET = 'not measured yet';

function escapeCell(value) {
  return String(value ?? '')
    .replaceAll('|', '\\|')
    .replaceAll('\n', ' ');
}

/** A Markdown table of row objects (the first row's keys are the columns). */
export function table(rows, align) {
  if (rows.length === 0) return '';
  const columns = Object.keys(rows[0]);
  const lines = [
    `| ${columns.join(' | ')} |`,
    `| ${columns.map((_, i) => align?.[i] ?? (i === 0 ? '---' : '---:')).join(' | ')} |`,
    ...rows.map((row) => `| ${columns.map((c) => escapeCell(row[c])).join(' | ')} |`),
  ];
  return lines.join('\n');
}

/** 2026-11-27T22:01:33.000Z → 2026-11-27 22:01 UTC */
export function when(iso) {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** The code a result measured: its commit, and the folders with uncommitted changes. */
export function codeOf(result) {
  const folders = new Map();
  for (const path of result.uncommitted ?? []) {
    const folder = path.split('/').slice(0, 2).join('/');
    folders.set(folder, (folders.get(folder) ?? 0) + 1);
  }
  if (folders.size === 0) return result.commit;
  const list = [...folders].map(([folder, n]) => `${folder} (${n} file${n === 1 ? '' : 's'})`);
  return `${result.commit} + uncommitted changes in ${list.join(', ')}`;
}

const minutes = (seconds) => (seconds < 90 ? `${seconds} s` : `${Math.round(seconds / 60)} min`);

/** Runs in order of their start, numbered: `{ id → { n, command, mode } }`. */
function numberRuns(results) {
  const runs = new Map();
  for (const r of results.toSorted((a, b) => a.run.id.localeCompare(b.run.id))) {
    if (!runs.has(r.run.id)) runs.set(r.run.id, { n: runs.size + 1, ...r.run });
  }
  return runs;
}

function suiteLabel(suite) {
  return `${suite.id} ${suite.title}`;
}

function runsSection(stored) {
  const results = SUITES.map((s) => stored[s.id]).filter(Boolean);
  const runs = numberRuns(results);
  const out = ['### Runs', ''];
  out.push(
    table(
      SUITES.map((suite) => {
        const r = stored[suite.id];
        if (!r)
          return {
            suite: suiteLabel(suite),
            measured: NOT_MEASURED_YET,
            code: '',
            run: '',
            'load average, 1 min (start / peak)': '',
            took: '',
          };
        return {
          suite: suiteLabel(suite),
          measured: when(r.measuredAt),
          code: codeOf(r),
          run: `run ${runs.get(r.run.id).n}`,
          'load average, 1 min (start / peak)': `${r.load.start[0].toFixed(2)} / ${r.load.peak1m.toFixed(2)}`,
          took: minutes(r.durationS),
        };
      }),
      ['---', '---', '---', '---', '---:', '---:'],
    ),
    '',
  );
  for (const run of runs.values()) {
    out.push(
      `- run ${run.n}: \`${run.command}\`, started ${when(run.id)}${run.mode === 'full' ? '' : ` (${run.mode})`}`,
    );
  }
  if (runs.size > 0) out.push('');
  // The machine and the anchors' versions, once per distinct value, with the suites it holds for.
  const grouped = (key) => {
    const groups = new Map();
    for (const r of results) {
      const k = key(r);
      groups.set(k, [...(groups.get(k) ?? []), r.suite]);
    }
    return [...groups];
  };
  const machines = grouped(
    (r) => `Node ${r.machine.node}, ${r.machine.cpu}, ${r.machine.memory}, ${r.machine.os}`,
  );
  const versions = grouped((r) =>
    Object.entries(r.versions)
      .map(([name, version]) => `${name} ${version}`)
      .join(', '),
  );
  const forSuites = (groups, list) => (groups.length === 1 ? '' : ` (${list.join(', ')})`);
  for (const [machine, list] of machines)
    out.push(`Machine${forSuites(machines, list)}: ${machine}.`, '');
  for (const [line, list] of versions)
    out.push(`Anchors and frameworks${forSuites(versions, list)}: ${line}.`, '');
  return out;
}

function targetsSection(stored) {
  const rows = [];
  for (const suite of SUITES) {
    const r = stored[suite.id];
    if (!r) {
      rows.push({
        suite: suite.id,
        target: suite.title,
        'must hold': '',
        measured: '',
        status: NOT_MEASURED_YET,
      });
      continue;
    }
    for (const t of r.targets) {
      const status = statusOf(evaluateTarget(t));
      rows.push({
        suite: suite.id,
        target: t.text,
        'must hold': describeChecks(t.checks).join('; '),
        measured: describeMeasured(t),
        status: status === 'not measured' ? status : `**${status}**`,
      });
    }
  }
  return [
    '### Targets',
    '',
    table(rows, ['---', '---', '---', '---', '---']),
    '',
    ...missedSection(stored),
  ];
}

/** The stored runs' missed targets, by id, in the page's order. */
export function missedTargets(stored) {
  const missed = [];
  for (const suite of SUITES) {
    for (const t of stored[suite.id]?.targets ?? []) {
      if (statusOf(evaluateTarget(t)) === 'missed') missed.push({ suite: suite.id, target: t });
    }
  }
  return missed;
}

/** Each missed target's entry of missed-targets.mjs: since when, why, and the plan. */
function missedSection(stored) {
  const missed = missedTargets(stored);
  if (missed.length === 0) return [];
  const lines = missed.map(({ suite, target }) => {
    const entry = MISSED_TARGETS[target.id];
    const why = entry
      ? `missed since ${entry.since}: ${entry.why} Plan: ${entry.plan}`
      : 'no reason recorded (bench/src/missed-targets.mjs)';
    // The id, not the text: the Targets table above states each target once.
    return `- **${suite}** \`${target.id}\`: ${why}`;
  });
  return [
    'Missed targets (by id, in the order of the table above), why, and the plan:',
    '',
    ...lines,
    '',
  ];
}

function suiteSections(stored) {
  const results = SUITES.map((s) => stored[s.id]).filter(Boolean);
  const runs = numberRuns(results);
  const out = [];
  for (const suite of SUITES) {
    const r = stored[suite.id];
    out.push(`### ${suite.id} — ${suite.title}`, '');
    if (!r) {
      out.push(
        suite.load
          ? `Not measured yet: no \`bench/results/${suite.id}.json\`.`
          : `Not measured yet: the suite is planned (no \`bench/results/${suite.id}.json\`).`,
        '',
      );
      continue;
    }
    out.push(`_Measured ${when(r.measuredAt)} at ${codeOf(r)} (run ${runs.get(r.run.id).n})._`, '');
    for (const section of r.sections) {
      out.push(`#### ${section.title}`, '');
      if (section.rows.length > 0) out.push(table(section.rows), '');
      if (section.note) out.push(section.note, '');
    }
  }
  return out;
}

/** The Markdown between the markers, from the stored results (by suite id). */
export function renderResults(stored) {
  const known = new Set(SUITES.map((s) => s.id));
  const unknown = Object.keys(stored).filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw new Error(`stored results of suites not in suites.mjs: ${unknown.join(', ')}`);
  return [
    '_Generated by `node bench/src/page.mjs` from the stored results in ' +
      '[`bench/results/`](bench/results/), each written by a run of its suite (a full ' +
      '`pnpm bench` runs every suite, stores each result, then regenerates this section); do ' +
      'not edit by hand. Every figure of a suite comes from its one run listed under Runs; ' +
      'compare ratios within a suite, not absolute times across runs at different loads._',
    '',
    ...runsSection(stored),
    ...targetsSection(stored),
    ...suiteSections(stored),
  ].join('\n');
}

/** The text between the markers (without the newlines next to them). */
export function extractBlock(page) {
  const from = page.indexOf(START_MARKER);
  const to = page.indexOf(END_MARKER);
  if (from === -1 || to === -1 || to < from)
    throw new Error(`BENCHMARKS.md lacks the ${START_MARKER} / ${END_MARKER} markers`);
  return page
    .slice(from + START_MARKER.length, to)
    .replace(/^\n/, '')
    .replace(/\n$/, '');
}

/** The page with its block replaced. */
export function replaceBlock(page, block) {
  const from = page.indexOf(START_MARKER);
  const to = page.indexOf(END_MARKER);
  if (from === -1 || to === -1 || to < from)
    throw new Error(`BENCHMARKS.md lacks the ${START_MARKER} / ${END_MARKER} markers`);
  return `${page.slice(0, from + START_MARKER.length)}\n${block}\n${page.slice(to)}`;
}

/** Rewrites BENCHMARKS.md's results section from the stored results; returns the block. */
export function writePage({ file = PAGE_FILE, stored = readStoredResults() } = {}) {
  const block = renderResults(stored);
  writeFileSync(file, replaceBlock(readFileSync(file, 'utf8'), block));
  return block;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    const current = extractBlock(readFileSync(PAGE_FILE, 'utf8'));
    if (current !== renderResults(readStoredResults())) {
      console.error(
        'BENCHMARKS.md: the results section is not what bench/results/ gives; run node bench/src/page.mjs',
      );
      process.exit(1);
    }
    console.log('BENCHMARKS.md: the results section is what bench/results/ gives');
  } else {
    writePage();
    console.log('Wrote the results section of BENCHMARKS.md from bench/results/');
  }
}
