import { describe, expect, it } from 'vitest';
import { builtCli, runCli } from './cli-process';

// `--port "$PORT"` with PORT unset used to start on a random port (Number('') is 0), and '0x1f90'
// or '1e3' on ports the user never wrote. Only decimal digits are a port.

builtCli();

describe('the CLI --port', () => {
  it.each([[''], [' '], ['0x1f90'], ['1e3'], ['+80'], ['80.0'], ['123456'], ['65536']])(
    'refuses %j: exit 2 with the usage, nothing listens',
    async (value) => {
      const { code, err, listened } = await runCli(['--port', value]);
      expect(listened).toBe(false);
      expect(code).toBe(2);
      expect(err).toContain(`--port must be an integer from 0 to 65535, got '${value}'`);
      expect(err).toMatch(/Usage: infergate-emulator/);
    },
  );
});
