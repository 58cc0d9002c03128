import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index';
import { chat, userChat } from './helpers';

// `truncated_json` cuts a JSON answer in half. A streamed request has none to cut: the rule used to
// match it anyway, so `times: 1` was spent on a stream left whole and the next JSON answer came whole.

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('a truncated_json rule', () => {
  it('leaves a streamed request whole and waits, unspent, for a request it can cut', async () => {
    const emulator = createEmulator({ latencyMs: 0 });
    emulator.injectFault({ fault: 'truncated_json', endpoint: 'chat', times: 1 });
    const stream = await chat(emulator, userChat('community/general', 'hi', { stream: true }));
    expect((await stream.text()).trimEnd().endsWith('data: [DONE]')).toBe(true);
    const cut = await chat(emulator, userChat('community/general', 'hi'));
    expect(cut.status).toBe(200);
    expect(parses(await cut.text())).toBe(false);
    // Spent by the answer it cut: the next comes whole.
    const whole = await chat(emulator, userChat('community/general', 'hi'));
    expect(parses(await whole.text())).toBe(true);
  });

  it('counts only the requests it can cut for every / afterRequests', async () => {
    const emulator = createEmulator({ latencyMs: 0 });
    emulator.injectFault({ fault: 'truncated_json', endpoint: 'chat', afterRequests: 1 });
    await (await chat(emulator, userChat('community/general', 'hi', { stream: true }))).text();
    // The stream did not count: this is the first request the rule meets, let through.
    const first = await chat(emulator, userChat('community/general', 'hi'));
    expect(parses(await first.text())).toBe(true);
    const second = await chat(emulator, userChat('community/general', 'hi'));
    expect(parses(await second.text())).toBe(false);
  });
});
