// Gateway API §4.3 rule 2 (docs/gateway-protocol.md §4.2): "When `tools` is sent and the model lacks
// `tools`, it is refused with `unsupported_model_capability`" — an empty list is sent too.
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index';
import { chat, errorBodyOf, userChat } from './helpers';

describe('tools sent to a model without the tools capability', () => {
  it('an empty tools list is refused with unsupported_model_capability', async () => {
    const emulator = createEmulator();
    const response = await chat(emulator, userChat('community/plain', 'hi', { tools: [] }));
    const error = await errorBodyOf(response);
    expect(error).toMatchObject({ status: 400, code: 'unsupported_model_capability' });
    expect(error.message).toContain('tools');
  });

  it('an empty list with a tool_choice is refused the same', async () => {
    const emulator = createEmulator();
    const body = userChat('community/streamer', 'hi', { tools: [], tool_choice: 'none' });
    expect(await errorBodyOf(await chat(emulator, body))).toMatchObject({
      code: 'unsupported_model_capability',
    });
  });

  it('tools: null is no field (answered), and an empty list on a model with tools is answered', async () => {
    const emulator = createEmulator();
    expect((await chat(emulator, userChat('community/plain', 'hi', { tools: null }))).status).toBe(
      200,
    );
    expect((await chat(emulator, userChat('community/tools', 'hi', { tools: [] }))).status).toBe(
      200,
    );
  });
});
