/**
 * Every options object a user gives the emulator in code refuses an unknown key before anything
 * happens, naming the closest known one (as core does): `hots` must not serve on 127.0.0.1.
 */
import { Server } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  flacWithSpeech,
  mp3WithSpeech,
  pngWithText,
  wavWithoutSpeech,
  wavWithSpeech,
} from '../src/fixtures';
import { createEmulator, type StartEmulatorOptions, startEmulator } from '../src/index';
import { type EmulateOptions, emulate } from '../src/testing';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('unknown options', () => {
  it('startEmulator refuses `hots` before listening', async () => {
    const listen = vi.spyOn(Server.prototype, 'listen');
    const options = { port: 0, hots: '0.0.0.0' } as StartEmulatorOptions;
    await expect(startEmulator(options)).rejects.toThrow(
      new TypeError('unknown option `hots` in startEmulator — did you mean `host`?'),
    );
    expect(listen).not.toHaveBeenCalled();
  });

  it('emulate refuses an unknown option, and one of its hooks, before serving', async () => {
    const listen = vi.spyOn(Server.prototype, 'listen');
    const typo = { as: 'http', scenaro: { latencyMs: 5 } } as EmulateOptions;
    await expect(emulate(typo)).rejects.toThrow(
      'unknown option `scenaro` in emulate — did you mean `scenario`?',
    );
    const hooks = { as: 'http', hooks: { aftrEach: () => {} } } as unknown as EmulateOptions;
    await expect(emulate(hooks)).rejects.toThrow(
      'unknown option `aftrEach` in emulate hooks — did you mean `afterEach`?',
    );
    expect(listen).not.toHaveBeenCalled();
  });

  it('the waits refuse an unknown option', async () => {
    const gateway = await emulate();
    const wrong = { timeoutMS: 5 } as never;
    expect(() => gateway.until(() => true, wrong)).toThrow(
      'unknown option `timeoutMS` in until — did you mean `timeoutMs`?',
    );
    expect(() => gateway.untilHeld(0, { kye: 'x' } as never)).toThrow(
      'unknown option `kye` in untilHeld — did you mean `key`?',
    );
    expect(() => gateway.untilIdle(wrong)).toThrow('in untilIdle — did you mean `timeoutMs`?');
    expect(() => gateway.untilRequests(0, { endpont: 'embeddings' } as never)).toThrow(
      'unknown option `endpont` in untilRequests — did you mean `endpoint`?',
    );
    expect(() => gateway.untilCancelled(0, wrong)).toThrow('in untilCancelled');
    await gateway.close();
  });

  it('the fixtures refuse an unknown option', () => {
    expect(() => wavWithSpeech('hi', { second: 2 } as never)).toThrow(
      'unknown option `second` in wavWithSpeech — did you mean `seconds`?',
    );
    expect(() => wavWithoutSpeech({ sampleRat: 8000 } as never)).toThrow(
      'did you mean `sampleRate`?',
    );
    expect(() => mp3WithSpeech('hi', { secs: 2 } as never)).toThrow('in mp3WithSpeech');
    expect(() => flacWithSpeech('hi', { second: 2 } as never)).toThrow('in flacWithSpeech');
    expect(() => pngWithText('hi', { widht: 2 } as never)).toThrow(
      'unknown option `widht` in pngWithText — did you mean `width`?',
    );
  });

  it('names the known options when none is close', async () => {
    await expect(startEmulator({ verbose: true } as StartEmulatorOptions)).rejects.toThrow(
      'unknown option `verbose` in startEmulator; known: port, host, scenario, emulator, cors',
    );
    // The scenario has its own check (createEmulator's), with its own wording.
    expect(() => createEmulator({ modles: [] } as never)).toThrow('did you mean models?');
  });
});
