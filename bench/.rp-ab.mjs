// A/B: core's client.chat / chatStream, this build vs fda62b6's, interleaved in one process (canned fetch).
import { CANNED_BASE_URL, CANNED_KEY, CHAT_MODEL, cannedFetch } from './src/canned-gateway.mjs';
import { interleaved } from './src/harness.mjs';
const now = await import('/work/wt/request-path/packages/core/dist/index.js');
const base = await import('/tmp/rp-base/packages/core/dist/index.js');
const fetch = cannedFetch();
const conn = { baseURL: CANNED_BASE_URL, apiKey: CANNED_KEY, fetch };
const request = { model: CHAT_MODEL, messages: [{ role: 'user', content: 'Say hello in one short sentence.' }] };
const a = now.createGatewayClient(conn);
const b = base.createGatewayClient(conn);
for (const c of [a, b]) await c.chat(request);
const cases = [
  { name: 'raw', run: async () => { const r = await fetch(`${CANNED_BASE_URL}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${CANNED_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(request) }); JSON.parse(await r.text()); } },
  { name: 'new chat', run: () => a.chat(request) },
  { name: 'base chat', run: () => b.chat(request) },
];
const rounds = Number(process.argv[2] ?? 30);
const r = await interleaved(cases, { rounds, iterations: 500, warmupMs: 5000, collectBetween: false });
for (const [k, v] of Object.entries(r)) console.log(k, (v * 1000).toFixed(2), 'µs');
console.log('new/base', (r['new chat'] / r['base chat']).toFixed(3), 'new/raw', (r['new chat'] / r.raw).toFixed(3), 'base/raw', (r['base chat'] / r.raw).toFixed(3));
