// docs/gateway-protocol.md §2.2, §3 (the keys, models and services a scenario file describes).
import { readFile } from 'node:fs/promises';
import { resolveScenario } from './resolve-scenario';
import type { ScenarioInput } from './scenario';

/** A scenario file that cannot be used; the message names the file. */
export class ScenarioFileError extends Error {
  constructor(path: string, problem: string) {
    super(`Scenario file '${path}' ${problem}`);
    this.name = 'ScenarioFileError';
  }
}

/**
 * JSONC to JSON: comments (`//`, `/* *\/`) and trailing commas become spaces, everything else
 * stays where it was, so `JSON.parse`'s positions (line, column) still point into the file.
 */
export function stripJsonComments(text: string): string {
  // Code units, as the indices below count them (a code point split would shift every index
  // after an emoji by one).
  const out = text.split('');
  const blank = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (out[i] !== '\n' && out[i] !== '\r') out[i] = ' ';
  };
  /** The index of a comma that only whitespace or comments follow so far. */
  let comma = -1;
  let i = 0;
  if (text.charCodeAt(0) === 0xfeff) blank(0, 1); // a byte-order mark
  while (i < text.length) {
    const char = text[i]!;
    if (char === '"') {
      comma = -1;
      i = endOfString(text, i);
    } else if (char === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      blank(i, stop);
      i = stop;
    } else if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end === -1) throw new SyntaxError(`Unterminated /* comment at ${lineColumn(text, i)}`);
      blank(i, end + 2);
      i = end + 2;
    } else {
      if ((char === '}' || char === ']') && comma !== -1) blank(comma, comma + 1);
      if (char === ',') comma = i;
      else if (!/\s/.test(char)) comma = -1;
      i += 1;
    }
  }
  return out.join('');
}

/** The index just past the string that starts with the quote at `start`. */
function endOfString(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1; // an unterminated string is left for JSON.parse to report
}

function lineColumn(text: string, index: number): string {
  const before = text.slice(0, index).split('\n');
  return `line ${before.length} column ${before.at(-1)!.length + 1}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/**
 * Reads a scenario file for the CLI: JSON, or JSONC (comments, trailing commas) as the README's
 * example is written. The scenario is resolved once here so that a mistake in it (an unknown
 * dialect or fault, a bad latency) is reported with the file's name before the server starts.
 */
export async function readScenarioFile(path: string): Promise<ScenarioInput> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ScenarioFileError(path, `cannot be read: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(stripJsonComments(text));
  } catch (error) {
    throw new ScenarioFileError(
      path,
      `is not valid JSON (comments and trailing commas are allowed): ${(error as Error).message}`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ScenarioFileError(path, `must hold a JSON object, not ${describe(value)}`);
  }
  try {
    resolveScenario(value as ScenarioInput);
  } catch (error) {
    throw new ScenarioFileError(path, `is not a usable scenario: ${(error as Error).message}`);
  }
  return value as ScenarioInput;
}
