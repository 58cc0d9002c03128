#!/usr/bin/env node
// Renders the generated blocks of RELIABILITY.md (repo root) from results/*.json, which the test
// files write. Blocks are delimited by <!-- generated:NAME --> … <!-- /generated:NAME -->; the
// text around them is written by hand. A block whose results are missing is left unchanged.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const REPORT = here('../../../RELIABILITY.md');
const read = (name) => {
  const file = here(`../results/${name}.json`);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
};

/** Every result whose name starts with `prefix` (e.g. each file's rows of one issue), by name. */
const readAll = (prefix) => {
  const dir = here('../results/');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && f.endsWith('.json'))
    .sort()
    .map((f) => read(f.slice(0, -'.json'.length)));
};

const ENDPOINTS = [
  'chat',
  'chat_stream',
  'chat_stream_result',
  'embeddings',
  'translation',
  'ocr',
  'transcription',
];
const SURFACES = ['core', 'langchain', 'ai-sdk'];
const md = (text) => String(text).replaceAll('|', '\\|').replaceAll('\n', ' ');

const TRANSPORT_TITLES = {
  fetch: "Through the emulator's fetch handler (in process)",
  http: "Through the emulator's HTTP server (real sockets: a dropped connection is a destroyed socket, a cut stream a connection closed without the chunked terminator)",
};

function matrix(data) {
  const all = data.cells;
  const passed = all.filter((c) => c.pass).length;
  const known = all.filter((c) => !c.pass && c.knownDefect).length;
  const resolved = all.filter((c) => c.pass && c.textResolvedOnError).length;
  const lines = [
    `${all.length} cells: **${passed} as expected**` +
      (resolved > 0 ? ` (${resolved} of them ✓ᵗ, see below)` : '') +
      (known > 0 ? `, ${known} known-defect cells (⚠, skipped)` : '') +
      `, ${all.length - passed - known} failing (maxRetries ${data.maxRetries}, deadline ${data.timeoutMs} ms${data.safetyNetMs ? ` where it is the subject, ${data.safetyNetMs} ms as a safety net elsewhere` : ''}).`,
    '',
    'Each endpoint cell shows core · LangChain · AI SDK for the `once` variant (fault on the first',
    'request only), then for `always` (fault on every request). ✓ = as expected, ✗ = not,',
    ...(known > 0 ? ['⚠ = not, a known defect (its test is skipped, see Defects found),'] : []),
    '— = the fault cannot hit that endpoint. ✓ᵗ = as expected, and (the documented AI SDK',
    "behaviour) `await result.text` resolved with the partial text while `finishReason` is `'error'`",
    'and `onError` received the `APICallError` with the code shown.',
  ];
  for (const transport of ['fetch', 'http']) {
    const cells = all.filter((c) => (c.transport ?? 'fetch') === transport);
    if (cells.length === 0) continue;
    lines.push('', `#### ${TRANSPORT_TITLES[transport]}`, '', ...matrixTable(data, cells));
  }
  const failing = all.filter((c) => !c.pass);
  if (failing.length > 0) {
    lines.push(
      '',
      `Cells not as expected${known > 0 ? ' (⚠: known defect, test skipped)' : ''}:`,
      '',
    );
    for (const c of failing)
      lines.push(
        `- ${c.knownDefect ? '⚠' : '✗'} ${c.surface} ${c.endpoint} ${c.fault} ${c.variant} (${c.transport}): ${c.problems.join('; ')}`,
      );
  }
  return lines.join('\n');
}

function matrixTable(data, cells) {
  const lines = [];
  lines.push(
    `| fault | once → | always → | ${ENDPOINTS.join(' | ')} |`,
    `|---|---|---|${ENDPOINTS.map(() => '---').join('|')}|`,
  );
  const noFault = (endpoint) =>
    SURFACES.map((s) => {
      const cell = cells.find(
        (c) => c.fault === 'none' && c.endpoint === endpoint && c.surface === s,
      );
      return cell ? (cell.pass ? '✓' : '✗') : '—';
    }).join('');
  lines.push(`| no fault | success, 1 request | | ${ENDPOINTS.map(noFault).join(' | ')} |`);
  for (const row of data.rows) {
    const once = row.retryable ? 'success, 2 requests' : `\`${row.code}\`, 1 request`;
    const always = row.retryable
      ? `\`${row.code}\`, ${data.maxRetries + 1} requests`
      : `\`${row.code}\`, 1 request`;
    const marks = ENDPOINTS.map((endpoint) => {
      const variant = (v) =>
        SURFACES.map((s) => {
          const cell = cells.find(
            (c) =>
              c.fault === row.id && c.endpoint === endpoint && c.surface === s && c.variant === v,
          );
          if (!cell) return '—';
          if (cell.pass) return cell.textResolvedOnError ? '✓ᵗ' : '✓';
          return cell.knownDefect ? '⚠' : '✗';
        }).join('');
      const o = variant('once');
      return o === '———' ? '—' : `${o} / ${variant('always')}`;
    });
    lines.push(`| ${md(row.label)} | ${once} | ${always} | ${marks.join(' | ')} |`);
  }
  return lines;
}

function load(one, stress) {
  const lines = [
    '| run | requests | callers | failures | 429 `client_concurrency_exceeded` | max in flight (key) | wall | throughput | ideal (4 ÷ mean service time) | efficiency | queue wait p50 / p99 |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const [name, data] of [
    ['`pnpm test`', one],
    ['`pnpm stress` (10×)', stress],
  ]) {
    const r = data?.oneKey;
    if (!r) continue;
    lines.push(
      `| ${name} | ${r.requests} | ${r.callers} | ${r.failures} | ${r.concurrencyRejections} | ${r.maxInflight} | ${(r.wallMs / 1000).toFixed(1)} s | ${r.throughputPerS}/s | ${r.idealPerS}/s (mean ${r.meanServiceMs} ms) | ${(r.efficiency * 100).toFixed(1)} % | ${r.queueWaitP50Ms} / ${r.queueWaitP99Ms} ms |`,
    );
  }
  lines.push(
    '',
    '| run | two keys: requests | failures | 429s | max in flight per key | max in flight total |',
    '|---|---|---|---|---|---|',
  );
  for (const [name, data] of [
    ['`pnpm test`', one],
    ['`pnpm stress`', stress],
  ]) {
    const r = data?.twoKeys;
    if (!r) continue;
    lines.push(
      `| ${name} | ${r.requests} | ${r.failures} | ${r.concurrencyRejections} | ${Object.values(r.maxInflight).join(' + ')} | ${r.maxInflightTotal} |`,
    );
  }
  const mix = one?.oneKey?.bySurface;
  if (mix)
    lines.push(
      '',
      `Surface mix of the one-key run: ${Object.entries(mix)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}.`,
    );
  return lines.join('\n');
}

function abort(one, stress) {
  const lines = [
    '| run | calls | aborted | rejected with the abort error | finished before the abort | aborts while queued / in flight / mid-body / after the end | wrong outcomes | idle afterwards |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const [name, data] of [
    ['`pnpm test`', one],
    ['`pnpm stress` (10×)', stress],
  ]) {
    const r = data?.storm;
    if (!r) continue;
    const p = r.abortPhases;
    lines.push(
      `| ${name} | ${r.calls} | ${r.aborted} | ${r.abortedRejected} | ${r.abortedSucceededFirst} | ${p.queued} / ${p.inFlight} / ${p.midBody} / ${p.afterSettled} | ${r.wrong} | ${r.idle ? 'yes' : 'NO'} |`,
    );
  }
  return lines.join('\n');
}

function badInput(data) {
  const lines = [
    `${data.invalid} invalid inputs and ${data.boundary} boundary values. Each cell: the error type and message the caller gets (— where the surface cannot express the input); every refusal sent 0 requests to the endpoint.`,
    '',
    '| # | endpoint | input | kind | core | LangChain | AI SDK | note |',
    '|---|---|---|---|---|---|---|---|',
  ];
  data.rows.forEach((row, i) => {
    const cell = (s) => {
      const c = row.cells[s];
      if (!c) return '—';
      if (c.result === 'success') return '✓ success';
      return `${md(c.result.replace('invalid_request_error', 'invalid_request'))}: ${md(c.message.slice(0, 150))}${c.endpointRequests ? ` (**${c.endpointRequests} sent**)` : ''}`;
    };
    lines.push(
      `| ${i + 1} | ${row.endpoint} | ${md(row.input)} | ${row.kind} | ${cell('core')} | ${cell('langchain')} | ${cell('ai-sdk')} | ${md(row.note ?? '')} |`,
    );
  });
  return lines.join('\n');
}

function fuzz(one, stress) {
  const lines = [
    '| property | `pnpm test` (seed) | `pnpm stress` (random seed) |',
    '|---|---|---|',
  ];
  const names = new Set([
    ...Object.keys(one?.properties ?? {}),
    ...Object.keys(stress?.properties ?? {}),
  ]);
  for (const name of names) {
    const a = one?.properties?.[name];
    const b = stress?.properties?.[name];
    lines.push(
      `| ${name} | ${a ? `${a.runs} runs (seed ${a.seed})` : '—'} | ${b ? `${b.runs} runs` : 'not run yet'} |`,
    );
  }
  const untyped = [...(one?.untyped ?? []), ...(stress?.untyped ?? [])];
  if (untyped.length > 0)
    lines.push('', 'Untyped errors seen:', '', ...untyped.map((u) => `- ${md(u)}`));
  return lines.join('\n');
}

function secrets(data) {
  return `${data.cells} matrix cells run with the canary key; ${data.errors} errors and ${data.objects} object views captured (${data.views} texts: message, stack, String, JSON, util.inspect down the cause chain; JSON, util.inspect and toJSON of every client, model and tool, before and after use), ${data.consoleLines} console lines: **${data.leaks} leaks**.`;
}

const HOSTILE_MARK = { pass: '✓', fail: '✗', todo: 'todo' };

/** The hostile rows of the given result files (hostile.json and hostile-transport.json), one table. */
function hostile(files, issue = 13) {
  const rows = files.filter(Boolean).flatMap((f) => f.rows ?? []);
  const count = (status) => rows.filter((r) => r.status === status).length;
  const lines = [
    `${rows.length} cases: **${count('pass')} pass**, ${count('fail')} fail${count('todo') ? `, ${count('todo')} todo` : ''}.`,
    '',
    `| id | area | hostile case | must hold | before (issue ${issue}) | now |`,
    '|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const now = `${HOSTILE_MARK[r.status] ?? '?'}${r.status !== 'pass' && r.detail ? ` (${md(r.detail).slice(0, 120)})` : ''}`;
    lines.push(
      `| ${r.id} | ${r.area} | ${md(r.case)} | ${md(r.expect)} | ${md(r.before)} | ${now} |`,
    );
  }
  return lines.join('\n');
}

const blocks = {
  hostile: () =>
    (read('hostile') || read('hostile-transport')) &&
    hostile([read('hostile'), read('hostile-transport')]),
  // Every results/hostile-28*.json (one per test file: hostile-28-<area>.test.ts), one table.
  'hostile-28': () => readAll('hostile-28').length > 0 && hostile(readAll('hostile-28'), 28),
  matrix: () => read('fault-matrix') && matrix(read('fault-matrix')),
  load: () => (read('load') || read('load-stress')) && load(read('load'), read('load-stress')),
  abort: () =>
    (read('abort') || read('abort-stress')) && abort(read('abort'), read('abort-stress')),
  'bad-input': () => read('bad-input') && badInput(read('bad-input')),
  fuzz: () => (read('fuzz') || read('fuzz-stress')) && fuzz(read('fuzz'), read('fuzz-stress')),
  secrets: () => read('secrets') && secrets(read('secrets')),
};

let report = readFileSync(REPORT, 'utf8');
for (const [name, render] of Object.entries(blocks)) {
  const text = render();
  if (!text) continue;
  const pattern = new RegExp(`(<!-- generated:${name} -->)[\\s\\S]*?(<!-- /generated:${name} -->)`);
  if (!pattern.test(report)) {
    console.warn(`RELIABILITY.md has no generated:${name} block`);
    continue;
  }
  report = report.replace(pattern, (_match, open, close) => `${open}\n${text}\n${close}`);
}
writeFileSync(REPORT, report);
console.log('RELIABILITY.md updated from test/reliability/results/');
