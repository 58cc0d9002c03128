// docs/gateway-protocol.md §4.2: the gateway refuses `tools` sent to a model without the `tools`
// capability, an empty list too; core never sends an empty list (nor the `tool_choice` given with
// it), on the raw `chat()` / `chatStream()` path as on the adapters', so such a call is answered.
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../src/index';
import { hi, recordingBodies as recording } from './helpers';

describe('an empty tools list is not sent', () => {
  it('raw chat with tools: [] on a model without tools is answered, the body has no tools', async () => {
    const { client, bodies } = await recording();
    const request = { ...hi('community/plain'), tools: [] } as ChatRequest;
    expect((await client.chat(request)).answer.text).toBe('Echo: hello there');
    expect(bodies).toHaveLength(1);
    expect(Object.keys(bodies[0]!)).not.toContain('tools');
  });

  it('raw chatStream with tools: [] and a tool_choice leaves both out', async () => {
    const { client, bodies } = await recording();
    const request = { ...hi('community/streamer'), tools: [], tool_choice: 'auto' } as ChatRequest;
    const result = await (await client.chatStream(request)).result();
    expect(result.text).toBe('Echo: hello there');
    expect(bodies).toHaveLength(1);
    expect(Object.keys(bodies[0]!)).not.toContain('tools');
    expect(Object.keys(bodies[0]!)).not.toContain('tool_choice');
  });

  it('a tool_choice given without tools is sent as given (the spec passes it on)', async () => {
    const { client, bodies } = await recording();
    await client.chat({ ...hi('community/plain'), tool_choice: 'none' } as ChatRequest);
    expect(bodies[0]).toMatchObject({ tool_choice: 'none' });
  });

  it('a non-empty tools list is still sent, and still needs the capability', async () => {
    const { client, bodies, emulator } = await recording();
    const tools = [{ type: 'function' as const, function: { name: 'f', parameters: {} } }];
    await client.chat({ ...hi('community/tools'), tools } as ChatRequest);
    expect(bodies[0]).toMatchObject({ tools });
    const refused = client.chat({ ...hi('community/plain'), tools } as ChatRequest);
    await expect(refused).rejects.toMatchObject({ code: 'unsupported_model_capability' });
    expect(emulator.counters.requests.chat).toBe(1);
  });
});
