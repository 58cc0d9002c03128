import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { bin, builtCli } from './cli-process';

const children: ChildProcess[] = [];

builtCli();

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
});

function start(
  args: string[],
): Promise<{ url: string; key: string; child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const url = /^export INFERGATE_BASE_URL=(\S+)$/m.exec(out)?.[1];
      const key = /^export INFERGATE_API_KEY=(\S+)$/m.exec(out)?.[1];
      if (url && key) resolve({ url, key, child, output: () => out });
    });
    child.on('exit', (code) => reject(new Error(`CLI exited with ${code}: ${out}`)));
  });
}

/** A scenario file in a fresh temporary folder, removed when the test ends. */
function scenarioFile(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'emu-cli-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** Runs the CLI until it exits: its exit code and what it wrote to stderr and stdout. */
async function exitOf(args: string[]): Promise<{ code: unknown; err: string; out: string }> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  let out = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  const code = await new Promise((resolve) => child.on('exit', resolve));
  return { code, err, out };
}

describe('infergate-emulator CLI', () => {
  it('starts on a free port and answers GET /models with the printed key', async () => {
    const { url, key } = await start(['--port', '0']);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const response = await fetch(`${url}/models`, { headers: { authorization: `Bearer ${key}` } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { object: string }).object).toBe('list');
  });

  it('--cors answers a browser preflight from an allowed origin', async () => {
    const { url } = await start(['--port', '0', '--cors', 'http://localhost:5173']);
    const preflight = (origin: string) =>
      fetch(`${url}/chat/completions`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
    const allowed = await preflight('http://localhost:5173');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect((await preflight('http://other.example')).status).toBe(403);
  });

  it('loads a scenario file', async () => {
    const file = scenarioFile(
      'scenario.json',
      JSON.stringify({
        keys: { 'my-own-key': { allowUnshielded: true, offlineFallback: true } },
        models: { 'community/plain': null },
      }),
    );
    const { url, key } = await start(['--port=0', '--scenario', file]);
    expect(key).toBe('ig-emu-full-0000');
    const response = await fetch(`${url}/models`, {
      headers: { authorization: 'Bearer my-own-key' },
    });
    const ids = ((await response.json()) as { data: { id: string }[] }).data.map((m) => m.id);
    expect(ids).not.toContain('community/plain');
  });

  it('prints shell lines only: export lines to paste, the rest as comments', async () => {
    const { output, child } = await start(['--port', '0', '--cors', '*']);
    // The last line (the curl hint) is printed right after the two settings: wait for its chunk.
    await new Promise<void>((resolve) => {
      const check = () => {
        if (!output().includes('Ctrl+C')) return;
        child.stdout!.off('data', check);
        resolve();
      };
      child.stdout!.on('data', check);
      check();
    });
    const out = output();
    const lines = out.trim().split('\n');
    expect(lines.every((line) => /^(export [A-Z_]+=\S+|#.*)$/.test(line))).toBe(true);
    // What a shell does with them: eval in sh, then read the variables back.
    const values = execFileSync('sh', ['-c', `${out}\nenv | grep ^INFERGATE_`], {
      encoding: 'utf8',
    });
    expect(values).toMatch(/^INFERGATE_BASE_URL=http:\/\/127\.0\.0\.1:\d+\/v1$/m);
    expect(values).toMatch(/^INFERGATE_API_KEY=ig-emu-full-0000$/m);
  });

  it('loads a JSONC scenario file (comments, trailing commas)', async () => {
    const file = scenarioFile(
      'scenario.jsonc',
      '{\n  // gone\n  "models": { "community/plain": null, },\n  /* no 429 */\n  "faults": [],\n}\n',
    );
    const { url, key } = await start(['--port=0', '--scenario', file]);
    const response = await fetch(`${url}/models`, { headers: { authorization: `Bearer ${key}` } });
    const ids = ((await response.json()) as { data: { id: string }[] }).data.map((m) => m.id);
    expect(ids).not.toContain('community/plain');
  });

  it('exits with 2 naming the scenario file when it is not valid', async () => {
    const file = scenarioFile('broken.json', '{\n  models: {}\n}\n');
    const { code, err } = await exitOf(['--port', '0', '--scenario', file]);
    expect(code).toBe(2);
    expect(err).toContain(`Scenario file '${file}' is not valid JSON`);
    expect(err).toMatch(/line 2 column 3/);
    expect(err).not.toMatch(/Usage:/);
    // A bad literal, which JSON.parse reports with no position: one line, with it.
    const literal = scenarioFile(
      'literal.json',
      '{\n "keys": {\n  "k": { "allowUnshielded": tru }\n }\n}\n',
    );
    const bad = await exitOf(['--port', '0', '--scenario', literal]);
    expect([bad.code, ...bad.err.trim().split('\n')]).toEqual([
      2,
      `infergate-emulator: Scenario file '${literal}' is not valid JSON (comments and trailing commas are allowed): unexpected " " at line 3 column 32`,
    ]);
  });

  it('exits with 2 on a key or model id holding a line break, printing nothing a shell could run', async () => {
    const key = 'k\necho PWNED-by-key\n#';
    for (const [name, scenario] of [
      ['key', { keys: { [key]: { allowUnshielded: true } } }],
      ['model', { models: { 'x/a\rb': { capabilities: ['chat'] } } }],
      ['allowed', { keys: { k: { allowedModels: ['community/general\u2028'] } } }],
    ] as const) {
      const file = scenarioFile(`${name}.json`, JSON.stringify(scenario));
      const { code, err, out } = await exitOf(['--port', '0', '--scenario', file]);
      expect(code).toBe(2);
      expect(out).toBe('');
      expect(err).toContain(`Scenario file '${file}' has a control character`);
      expect(err.trim().split('\n')).toHaveLength(1);
    }
  });

  it('exits with 2 naming a misspelt field with its path and the closest known name', async () => {
    const file = scenarioFile(
      'misspelt.jsonc',
      '{ "models": { "x/slow": { "firstChunkMS": 500 } } }\n',
    );
    const { code, err } = await exitOf(['--port', '0', '--scenario', file]);
    expect(code).toBe(2);
    expect(err).toContain(`Scenario file '${file}'`);
    expect(err).toContain('models["x/slow"].firstChunkMS — did you mean firstChunkMs?');
  });

  it('exits with 2 and the usage on a bad argument', async () => {
    const { code, err } = await exitOf(['--port', 'abc']);
    expect(code).toBe(2);
    expect(err).toMatch(/--port must be an integer/);
    expect(err).toMatch(/Usage: infergate-emulator/);
  });
});
