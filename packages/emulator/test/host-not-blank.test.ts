// `--host "$HOST"` with HOST unset (`''`), or `startEmulator({ host: process.env.HOST ?? '' })`,
// used to listen on every interface and print `http://:PORT/v1`: an empty or blank host is refused
// before anything listens, the CLI's with exit 2 and the usage, as an empty `--port` is.
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../src/index';
import { builtCli, runCli } from './cli-process';

builtCli();

describe('an empty or blank host is refused', () => {
  it.each([[['--host', '']], [['--host', ' ']], [['--host=']]])(
    'the CLI %j: exit 2 with the usage, nothing listens',
    async (args) => {
      const { code, err, listened } = await runCli(['--port', '0', ...args]);
      expect(listened).toBe(false);
      expect(code).toBe(2);
      expect(err).toMatch(/--host must be an interface name or address, got '\s*'/);
      expect(err).toMatch(/Usage: infergate-emulator/);
    },
  );

  it.each([[''], ['  ']])('startEmulator({ host: %j }) rejects with a TypeError', async (host) => {
    const started = startEmulator({ port: 0, host });
    await expect(started).rejects.toBeInstanceOf(TypeError);
    await expect(started).rejects.toThrow(/startEmulator: host must be an interface name/);
  });

  it('a named host still listens, its URL a valid one', async () => {
    const server = await startEmulator({ port: 0, host: 'localhost' });
    try {
      expect(new URL(server.url).hostname).toBe('localhost');
    } finally {
      await server.close();
    }
  });
});
