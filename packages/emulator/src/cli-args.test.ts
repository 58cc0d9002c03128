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

  it("reads --cors: '*' for any origin, or a comma-separated list of origins", () => {
    expect(parseCliArgs(['--cors', '*']).cors).toBe(true);
    expect(parseCliArgs(['--cors=http://localhost:5173, http://127.0.0.1:3000/']).cors).toEqual([
      'http://localhost:5173',
      'http://127.0.0.1:3000',
    ]);
  });

  it.each([
    [['--cors', 'localhost:5173'], /not an origin/],
    [['--cors', 'http://localhost:5173/app'], /not an origin/],
    [['--cors'], /--cors needs a value/],
    [['--port', '70000'], /--port must be an integer/],
    [['--port'], /--port needs a value/],
    [['--nope'], /unknown option `--nope` in infergate-emulator; known: --port, --host/],
    [
      ['--hots', '0.0.0.0'],
      'unknown option `--hots` in infergate-emulator — did you mean `--host`?',
    ],
    [['--port=1', '--scenaro=s.json'], 'did you mean `--scenario`?'],
    [['scenario.json'], "Unknown argument 'scenario.json'"],
  ])('refuses %j', (args, message) => {
    expect(() => parseCliArgs(args)).toThrow(message);
  });
});
