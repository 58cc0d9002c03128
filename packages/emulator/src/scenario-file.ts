// docs/gateway-protocol.md §2.2, §3 (the keys, models and services a scenario file describes).
import { readFile } from 'node:fs/promises';
import { fullAccessKey } from './full-access-key';
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

/** What a JSON.parse message lacks: where. The index of the first character that is no JSON. */
function badJsonIndex(text: string): number {
  let i = 0;
  const fail = (): never => {
    throw new BadJsonAt(i);
  };
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const expect = (char: string) => {
    if (text[i] !== char) fail();
    i++;
  };
  const string = () => {
    expect('"');
    while (text[i] !== '"') {
      if (i >= text.length || text.charCodeAt(i) < 0x20) fail();
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) i += 4;
        else if (!'"\\/bfnrt'.includes(text[i] ?? 'x')) fail();
      }
      i++;
    }
    i++;
  };
  const value = (): void => {
    space();
    const char = text[i];
    const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    number.lastIndex = i;
    if (char === '"') string();
    else if (char === '{' || char === '[') list(char === '{' ? '}' : ']');
    else if (number.test(text)) i = number.lastIndex;
    else {
      const word = ['true', 'false', 'null'].find((w) => w[0] === char) ?? fail();
      for (const letter of word) expect(letter);
    }
  };
  const list = (close: string) => {
    i++;
    space();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      if (close === '}') {
        space();
        string();
        space();
        expect(':');
      }
      value();
      space();
      if (text[i] === close) {
        i++;
        return;
      }
      expect(',');
    }
  };
  try {
    value();
    space();
    if (i < text.length) fail();
  } catch (error) {
    if (error instanceof BadJsonAt) return error.index;
    // Nested too deep for this check's stack: no position.
  }
  return -1;
}

class BadJsonAt {
  constructor(readonly index: number) {}
}

/** A JSON.parse error in one line, with its line and column (Node gives some none). */
function jsonProblem(error: Error, text: string): string {
  if (/line \d+ column \d+/.test(error.message)) return error.message;
  const index = badJsonIndex(text);
  if (index === -1) return error.message.replace(/\s*[\r\n]+\s*/g, ' ');
  const found = index < text.length ? JSON.stringify(text[index]) : 'end of file';
  return `unexpected ${found} at ${lineColumn(text, index)}`;
}

/** Whether `text` holds a C0 or C1 control character, or a line or paragraph separator. */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029) {
      return true;
    }
  }
  return false;
}

/**
 * The first name or id that holds a control character, as a path into the file (`keys["k\n…"]`):
 * a key is printed in `export` and `# Try:` lines that a shell may `eval`, and an id in messages.
 */
function controlCharacterAt(value: unknown, path = ''): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [name, item] of Object.entries(value)) {
    const quoted = JSON.stringify(name);
    const at = Array.isArray(value)
      ? `${path}[${name}]`
      : path === '' && !hasControl(name)
        ? name
        : `${path}[${quoted}]`;
    if (hasControl(name)) return at;
    // Ids given as values: a key's `allowedModels`, a model's `fallback`.
    const isId = /allowedModels"\]\[\d+\]$|\["fallback"\]$/.test(at);
    if (isId && typeof item === 'string' && hasControl(item)) return at;
    const inner = controlCharacterAt(item, at);
    if (inner !== undefined) return inner;
  }
  return undefined;
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
    text = stripJsonComments(text);
    value = JSON.parse(text);
  } catch (error) {
    const problem = error instanceof SyntaxError ? jsonProblem(error, text) : String(error);
    throw new ScenarioFileError(
      path,
      `is not valid JSON (comments and trailing commas are allowed): ${problem}`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ScenarioFileError(path, `must hold a JSON object, not ${describe(value)}`);
  }
  const control = controlCharacterAt(value);
  if (control !== undefined) {
    throw new ScenarioFileError(
      path,
      `has a control character (a line break, a tab, …) in the name or id at ${control}: keys and model ids are printed in lines a shell may run`,
    );
  }
  try {
    // A scenario without a key leaves nothing to print (`fullAccessKey` says so).
    fullAccessKey(resolveScenario(value as ScenarioInput));
  } catch (error) {
    throw new ScenarioFileError(path, `is not a usable scenario: ${(error as Error).message}`);
  }
  return value as ScenarioInput;
}
