// CJS require of the packed @infergate/ai-sdk (the entries for the installed `ai` major): the
// README's quick start (ai-sdk-quick-start.cjs). `ai` itself is ESM-only: Node 22 requires it.
const { entriesFor, quickStart } = require('./ai-sdk-quick-start.cjs');

const { major, entries } = entriesFor(require('ai/package.json').version);
(async () => {
  for (const entry of entries) {
    await quickStart({
      ai: require('ai'),
      infergate: require(entry),
      z: require('zod').z,
      wavWithSpeech: require('@infergate/emulator/fixtures').wavWithSpeech,
      label: `cjs, ai@${major}, ${entry}`,
    });
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
