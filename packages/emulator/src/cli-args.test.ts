import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './cli-args';

describe('parseCliArgs', () => {
  it('has defaults', () => {
    expect(parseCliArgs([])).toEqual({ port: 8787, host: '127.0.0.1', help: false });
  });

  it('reads --port, --host and --scenario, spaced or with =', () => {
    expect(parseCliArgs(['--port', '0', '--host=::1', '--scenario', 's.json'])).toEqual({
      port: 0,
      host: '::1',
      scenarioFile: 's.json',
      help: false,
    });
    expect(parseCliArgs(['-h']).help).toBe(true);
  });

  it.each([
    [['--port', '70000'], /--port must be an integer/],
    [['--port'], /--port needs a value/],
    [['--nope'], /Unknown argument/],
  ])('refuses %j', (args, message) => {
    expect(() => parseCliArgs(args)).toThrow(message);
  });
});
