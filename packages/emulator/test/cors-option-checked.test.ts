import { describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator, withCors } from '../src/index';

// rv-browser F3: the `cors` option given in code is checked as the CLI's `--cors` is. Before, a
// value the CLI refuses started a server whose preflights all failed in silence, `null` made every
// request with an `Origin` lose its connection, and a string matched origins as a substring.
const refused: [string, unknown, RegExp][] = [
  ["'*' in a list", ['*'], /give cors: true/],
  ['an origin without a scheme', ['localhost:5173'], /not an origin/],
  ['an origin with a path', ['http://localhost:5173/app'], /not an origin/],
  ['a string', 'http://localhost:5173', /got the string 'http:\/\/localhost:5173'/],
  ['null', null, /got null/],
  ['an empty list', [], /got an empty list/],
];

describe('the cors option', () => {
  it.each(refused)('refuses %s before anything listens', async (_, cors, message) => {
    await expect(startEmulator({ cors: cors as true })).rejects.toThrow(message);
    expect(() => withCors(async () => new Response(), cors as true)).toThrow(TypeError);
  });

  it('takes an origin with a trailing slash as the origin, and false as off', async () => {
    const listed = await startEmulator({ cors: ['http://localhost:5173/'] });
    const off = await startEmulator({ cors: false });
    const preflight = (server: RunningEmulator) =>
      fetch(`${server.url}/models`, {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' },
      });
    try {
      const allowed = await preflight(listed);
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      expect((await preflight(off)).headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await Promise.all([listed.close(), off.close()]);
    }
  });
});
