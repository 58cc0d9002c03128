import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveScenario } from './resolve-scenario';
import { readScenarioFile, stripJsonComments } from './scenario-file';

const dir = mkdtempSync(join(tmpdir(), 'emu-scenario-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('stripJsonComments', () => {
  it('drops comments and trailing commas, keeping every other character in place', () => {
    const text = '{\n  // a key\n  "a": [1, 2,], /* two */ "b": "x // not a comment",\n}\n';
    const stripped = stripJsonComments(text);
    expect(stripped).toHaveLength(text.length);
    expect(stripped.split('\n')).toHaveLength(text.split('\n').length);
    expect(JSON.parse(stripped)).toEqual({ a: [1, 2], b: 'x // not a comment' });
  });

  it('leaves strings alone, escaped quotes and comment-like text included', () => {
    const text = '{"a": "say \\"/* hi */\\", ok", "b": "c,}"}';
    expect(JSON.parse(stripJsonComments(text))).toEqual({ a: 'say "/* hi */", ok', b: 'c,}' });
  });

  it('removes a trailing comma followed by comments and keeps a comma between values', () => {
    const text = '[1, // one\n 2 /* two */ , // last\n]';
    expect(JSON.parse(stripJsonComments(text))).toEqual([1, 2]);
  });

  it('keeps what is wrong in plain JSON wrong, at the same position', () => {
    expect(() => JSON.parse(stripJsonComments('{\n  // c\n  "a": 1 "b": 2 }'))).toThrow(
      /line 3 column 10/,
    );
  });

  it('counts code units, so an emoji before a comment leaves the comment found (issue 53, defect 14)', () => {
    const text =
      '{\n  "name": "rocket 🚀", // the emoji is two code units\n  "b": [1, /* 🚀 */ 2,],\n}';
    const stripped = stripJsonComments(text);
    expect(stripped).toHaveLength(text.length);
    expect(JSON.parse(stripped)).toEqual({ name: 'rocket 🚀', b: [1, 2] });
  });

  it('reports an unterminated block comment with its line', () => {
    expect(() => stripJsonComments('{\n /* open')).toThrow(/Unterminated \/\* comment at line 2/);
  });
});

describe('readScenarioFile', () => {
  it("reads the README's JSONC scenario as it is written", async () => {
    const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
    const block = /```jsonc\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    const input = await readScenarioFile(file('readme.jsonc', block!));
    const scenario = resolveScenario(input);
    expect(scenario.models['my/gpu-box']).toMatchObject({ online: false, capacity: 2 });
    expect(scenario.keys['ig-emu-limited-0000']).toBeUndefined();
  });

  it.each([
    ['bad.json', '{\n  oops: 1\n}', /'.*bad\.json' is not valid JSON .*line 2 column 3/],
    ['array.json', '[]', /'.*array\.json' must hold a JSON object, not an array/],
    [
      'field.json',
      '{ "fault": [] }',
      /'.*field\.json' .*unknown field fault — did you mean faults\?/,
    ],
    [
      'rule.json',
      '{ "faults": [{ "fault": "bad_gatway" }] }',
      /'.*rule\.json' .*faults\[0\]\.fault "bad_gatway" is unknown — did you mean bad_gateway\?/,
    ],
    [
      'dialect.json',
      '{ "models": { "a/b": { "dialect": "klingon" } } }',
      /'.*dialect\.json' .*models\["a\/b"\]\.dialect "klingon" is unknown/,
    ],
    [
      'latency.json',
      '{ "latencyMs": { "distribution": "lognormal", "p50Ms": 300 } }',
      /'.*latency\.json' .*latencyMs needs p99Ms/,
    ],
  ])('names the file when %s is wrong', async (name, text, message) => {
    await expect(readScenarioFile(file(name, text))).rejects.toThrow(message);
  });

  it('refuses a "__proto__" key and leaves Object.prototype alone (issue 53, defect 15)', async () => {
    const path = file('proto.jsonc', '{ "models": { "__proto__": { "online": false } } }');
    await expect(readScenarioFile(path)).rejects.toThrow(
      /'.*proto\.jsonc' .*models\["__proto__"\] is refused: "__proto__" names an object's prototype/,
    );
    expect(({} as { online?: unknown }).online).toBeUndefined();
  });

  it('reads a JSONC scenario with an emoji before a comment', async () => {
    const path = file('emoji.jsonc', '{ "keys": { "k": { "name": "🔑" } } // 🚀\n}');
    expect(resolveScenario(await readScenarioFile(path)).keys.k!.name).toBe('🔑');
  });

  it('gives the line and column of a bad literal in one line (JSON.parse gives none)', async () => {
    for (const [text, where] of [
      [
        '{\n "keys": {\n  "k": { "allowUnshielded": tru }\n }\n}',
        'unexpected " " at line 3 column 32',
      ],
      ['{ "a": nul}', 'unexpected "}" at line 1 column 11'],
      ['{ "a": fals }', 'unexpected " " at line 1 column 12'],
    ]) {
      const error = await readScenarioFile(file('literal.json', text!)).catch((e: Error) => e);
      expect((error as Error).message).toMatch(new RegExp(`: ${where}$`));
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('refuses a control character in a key, a model id or an id it names, with its path', async () => {
    for (const [scenario, at] of [
      [{ keys: { 'k\necho x\n#': {} } }, 'keys["k\\necho x\\n#"]'],
      [{ models: { 'x/\u0085': { capabilities: ['chat'] } } }, 'models["x/\u0085"]'],
      [{ models: { 'x/a': { fallback: 'x/b\r' } } }, 'models["x/a"]["fallback"]'],
      [{ keys: { k: { allowedModels: ['a\u2028'] } } }, 'keys["k"]["allowedModels"][0]'],
    ] as const) {
      const path = file('control.json', JSON.stringify(scenario));
      await expect(readScenarioFile(path)).rejects.toThrow(
        `Scenario file '${path}' has a control character (a line break, a tab, …) in the name or id at ${at}`,
      );
    }
  });

  it('names a file that cannot be read', async () => {
    await expect(readScenarioFile(join(dir, 'missing.json'))).rejects.toThrow(
      /Scenario file '.*missing\.json' cannot be read: ENOENT/,
    );
  });
});
