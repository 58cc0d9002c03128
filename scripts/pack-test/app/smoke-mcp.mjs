// The packed @infergate/mcp as users run it: `infergate-mcp` (the installed bin) over stdio,
// spoken to in raw JSON-RPC as a desktop client would, against the emulator of the run.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const server = spawn('node_modules/.bin/infergate-mcp', ['--catalog-refresh', '0'], {
  stdio: ['pipe', 'pipe', 'inherit'],
  env: process.env,
});
const answers = new Map();
createInterface({ input: server.stdout }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.id !== undefined) answers.get(message.id)?.(message);
});
let nextId = 1;
const call = (method, params) =>
  new Promise((resolve) => {
    const id = nextId++;
    answers.set(id, resolve);
    server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  });

try {
  const init = await call('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'pack-test', version: '1.0.0' },
  });
  assert.equal(init.result.serverInfo.name, 'infergate');
  server.stdin.write(
    `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`,
  );
  const { result: list } = await call('tools/list', {});
  assert.deepEqual(list.tools.map((tool) => tool.name).sort(), [
    'ask_model',
    'embed',
    'list_models',
    'ocr',
    'similarity',
    'transcribe',
    'translate',
  ]);
  const translate = list.tools.find((tool) => tool.name === 'translate');
  assert.equal(translate.inputSchema.properties.text.maxLength, 4096);
  const { result } = await call('tools/call', {
    name: 'translate',
    arguments: { text: 'hello', target_language: 'de' },
  });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.equal(result.content[0].text, '[de] hello');
  const refused = await call('tools/call', {
    name: 'translate',
    arguments: { text: 'x'.repeat(5000), target_language: 'de' },
  });
  assert.equal(refused.result.isError, true);
} finally {
  server.stdin.end();
  server.kill();
}
console.log('mcp (esm): ok');
