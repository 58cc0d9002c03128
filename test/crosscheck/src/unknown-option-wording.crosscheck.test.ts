import { createGatewayClient } from '@infergate/core';
import { wavWithSpeech } from '@infergate/emulator/fixtures';
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';

// The emulator depends on nothing of ours at run time (docs: ARCHITECTURE.md), so its refusal of an
// unknown option (emulator/src/field-names.ts) copies core's wording by hand. Here both refuse the
// same kinds of key and their messages, the key, the place and the names put aside, must read the
// same: a change to either wording fails until the other follows.

const CONNECTION = { baseURL: 'http://127.0.0.1:1', apiKey: 'sk-wording' };

/** The message of core's refusal of `key` among `createGatewayClient`'s options. */
async function coreRefusal(key: string): Promise<string> {
  return (await caught(() => createGatewayClient({ ...CONNECTION, [key]: 1 } as never))).message;
}

/** The message of the emulator's refusal of `key` among `wavWithSpeech`'s options. */
async function emulatorRefusal(key: string): Promise<string> {
  return (await caught(() => wavWithSpeech('hi', { [key]: 1 } as never))).message;
}

/** `message` with the key (as quoted, at most 60 characters), the place and the names generalised. */
function shape(message: string, key: string, where: string, closest?: string): string {
  let shaped = message
    .replace(key.slice(0, 60), '<key>')
    .replace(` in ${where}`, ' in <where>')
    .replace(/; known: \w+(?:, \w+)*$/, '; known: <names>');
  if (closest !== undefined) shaped = shaped.replace(`\`${closest}\``, '`<closest>`');
  return shaped;
}

describe("the emulator's unknown-option wording is core's", () => {
  it('names the closest known option', async () => {
    const ours = shape(
      await coreRefusal('timeoutMz'),
      'timeoutMz',
      'createGatewayClient',
      'timeoutMs',
    );
    const emulator = shape(await emulatorRefusal('secondz'), 'secondz', 'wavWithSpeech', 'seconds');
    expect(ours).toBe('unknown option `<key>` in <where> — did you mean `<closest>`?');
    expect(emulator).toBe(ours);
  });

  it('lists the known options when none is close', async () => {
    const key = 'zzzzzzzzzzzzzz';
    const ours = shape(await coreRefusal(key), key, 'createGatewayClient');
    const emulator = shape(await emulatorRefusal(key), key, 'wavWithSpeech');
    expect(ours).toBe('unknown option `<key>` in <where>; known: <names>');
    expect(emulator).toBe(ours);
  });

  it('escapes the control characters of a key (a newline, a terminal escape), as core does', async () => {
    const key = 'zz\nzz\u001b[31mzz';
    const quotedKey = (message: string) => message.slice(0, message.indexOf(' in '));
    const ours = quotedKey(await coreRefusal(key));
    expect(ours).toBe('unknown option `zz\\nzz\\u001b[31mzz`');
    expect(quotedKey(await emulatorRefusal(key))).toBe(ours);
  });

  it('quotes at most 60 characters of a long key, marking the cut', async () => {
    const key = 'q'.repeat(70);
    const ours = shape(await coreRefusal(key), key, 'createGatewayClient');
    const emulator = shape(await emulatorRefusal(key), key, 'wavWithSpeech');
    expect(ours).toBe('unknown option `<key>…` in <where>; known: <names>');
    expect(emulator).toBe(ours);
  });
});
