import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWithGc } from './helpers';

const dist = (name: string) => JSON.stringify(join(import.meta.dirname, '..', 'dist', name));

/**
 * In a child process whose global object takes no new property (a realm hardened after start-up,
 * `Object.preventExtensions(globalThis)`): the call ids kept on `globalThis` cannot be, and
 * telemetry must never fail a call. The calls answer, their events carry ids, one id a call.
 */
const SCRIPT = `
const { createGatewayClient } = await import(${dist('index.js')});
Object.preventExtensions(globalThis);
const body = JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }] });
const fetch = async () => new Response(body, { headers: { 'content-type': 'application/json' } });
const ids = [];
const client = createGatewayClient({
  baseURL: 'https://unreachable.test/v1', apiKey: 'k', fetch,
  onEvent: (event) => { if (event.type === 'start') ids.push(event.callId); },
});
const request = { model: 'community/general', messages: [{ role: 'user', content: 'hi' }] };
const answers = [];
for (let i = 0; i < 2; i++) answers.push((await client.chat(request, { capabilities: ['chat'] })).answer.text);
console.log(JSON.stringify({ answers, ids }));
process.exit(0);
`;

describe('call ids in a realm whose global object takes no new property', () => {
  it('calls with onEvent still answer, each with its own id', async () => {
    const result = (await runWithGc(SCRIPT, join(import.meta.dirname, '..'))) as {
      answers: string[];
      ids: number[];
    };
    expect(result.answers).toEqual(['hi', 'hi']);
    expect(result.ids).toHaveLength(2);
    expect(new Set(result.ids).size).toBe(2);
  });
});
