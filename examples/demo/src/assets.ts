import { readFile } from 'node:fs/promises';

/** What the bundled `memo.wav` says (the emulator reads it from the file's `SPEECH:` comment). */
export const SPOKEN_TEXT = 'Hello from infergate. Please send the quarterly report by Friday.';
/** What the bundled `invoice.png` shows (the emulator reads it from the file's `TEXT:` chunk). */
export const IMAGE_TEXT = 'INVOICE 42';

/** The bytes of a bundled media file: `memo.wav` or `invoice.png`. */
export async function readAsset(name: 'memo.wav' | 'invoice.png'): Promise<Uint8Array> {
  return new Uint8Array(await readFile(new URL(`../assets/${name}`, import.meta.url)));
}
