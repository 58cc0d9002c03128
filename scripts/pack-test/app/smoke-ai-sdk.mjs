// ESM import of the packed @infergate/ai-sdk (the entries for the installed `ai` major), through
// the installed `ai`: the README's quick start (ai-sdk-quick-start.cjs).
import { createRequire } from 'node:module';
import * as fixtures from '@infergate/emulator/fixtures';
import * as ai from 'ai';
import { z } from 'zod';

const require = createRequire(import.meta.url);
const { entriesFor, quickStart } = require('./ai-sdk-quick-start.cjs');
const { major, entries } = entriesFor(require('ai/package.json').version);
for (const entry of entries) {
  await quickStart({
    ai,
    infergate: await import(entry),
    z,
    wavWithSpeech: fixtures.wavWithSpeech,
    label: `esm, ai@${major}, ${entry}`,
  });
}
