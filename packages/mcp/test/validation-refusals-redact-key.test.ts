/**
 * A gateway key a caller pasted into an argument is not echoed by the refusal of the arguments:
 * the MCP SDK sends the input schema's words as they are (`Input validation error: …`), past the
 * redaction of tool results, so the schemas redact their own (a language code quoted by core's
 * check, an unknown argument's name). Through the MCP SDK's Client against the emulator, the key
 * one that is no language code (a `sk_live_…` key: `_` is in none).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, textOf } from './harness';

const key = 'sk_live_Abc123Def456Ghi789';

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({
    scenario: { keys: { [key]: {} } },
    server: { clientOptions: { apiKey: key } },
  });
}, 120_000);
afterAll(async () => {
  await harness.close();
});

async function translate(args: Record<string, unknown>): Promise<CallToolResult> {
  const client = await harness.connect();
  return (await client.callTool({ name: 'translate', arguments: args })) as CallToolResult;
}

describe('a refusal of the arguments holding the gateway key', () => {
  it('target_language: refused with the key redacted, nothing sent', async () => {
    const result = await translate({ text: 'hi', target_language: key });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('target_language: "[redacted]" is not a language code');
    expect(JSON.stringify(result)).not.toContain(key);
    expect(harness.gateway.emulator.counters.requests.translations ?? 0).toBe(0);
  });

  it('source_language: refused with the key redacted', async () => {
    const result = await translate({ text: 'hi', target_language: 'de', source_language: key });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('source_language: "[redacted]" is not a language code');
    expect(JSON.stringify(result)).not.toContain(key);
  });

  it('an unknown argument named by the key: its name redacted', async () => {
    const result = await translate({ text: 'hi', target_language: 'de', [key]: 1 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('unknown argument `[redacted]`');
    expect(JSON.stringify(result)).not.toContain(key);
  });

  it('a start of the key cut in a long name: not left either', async () => {
    const name = `${key}${'x'.repeat(80)}`;
    const result = await translate({ text: 'hi', target_language: 'de', [name]: 1 });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).not.toContain(key.slice(0, 12));
  });
});
