// The demo's README numbers its steps (the table's `| # | step (its heading) |` rows) and names the
// steps a configured gateway skips (by heading, in italics, under "Run it against a real
// gateway"). Both are checked against what the demo printed on a gateway it did not start, so
// neither drifts from the code when a step is added or moved.

/** The `[n/N] heading` lines the demo printed, each with whether a `↷ skipped:` line followed it. */
function printedSteps(output) {
  const headings = [...output.matchAll(/^\[(\d+)\/\d+\] (.+)$/gm)];
  return headings.map((match, i) => {
    const body = output.slice(match.index, headings[i + 1]?.index ?? output.length);
    return {
      number: Number(match[1]),
      title: match[2].trim(),
      skipped: body.includes('↷ skipped:'),
    };
  });
}

/** What the README says that the run contradicts: `[message]`, empty when it agrees. */
export function demoReadmeProblems(readme, output) {
  const problems = [];
  const printed = printedSteps(output);
  const rows = [...readme.matchAll(/^\| (\d+) \| ([^|]+?) \|/gm)].map((match) => ({
    number: Number(match[1]),
    title: match[2].trim(),
  }));
  if (printed.length === 0) return ['the demo printed no `[n/N] heading` lines'];
  const table = rows.map((row) => `${row.number} ${row.title}`).join('\n');
  const run = printed.map((step) => `${step.number} ${step.title}`).join('\n');
  if (table !== run)
    problems.push(`README.md's step table is not the demo's steps; the demo printed:\n${run}`);
  const start = readme.indexOf('## Run it against a real gateway');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end).replace(/\s+/g, ' ');
  const named = printed.filter((step) => section.includes(`*${step.title}*`)).map((s) => s.title);
  const skipped = printed.filter((step) => step.skipped).map((step) => step.title);
  if (start < 0 || named.join('\n') !== skipped.join('\n'))
    problems.push(
      `README.md's "Run it against a real gateway" names the skipped steps as ${JSON.stringify(named)} (each as *its heading*); the demo skipped ${JSON.stringify(skipped)}`,
    );
  return problems;
}
