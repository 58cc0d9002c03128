import { afterEach, describe, expect, it } from 'vitest';
import { createGatewayClient } from '../index';
import { readEnv } from './read-env';

const realProcess = globalThis.process;
const global = globalThis as { process?: unknown; Deno?: unknown };

afterEach(() => {
  global.process = realProcess;
  delete global.Deno;
});

/** A Deno permission error as Deno throws it (its class is named NotCapable since Deno 2). */
function notCapable(): Error {
  const error = new Error('Requires env access to "INFERGATE_API_KEY", run again with --allow-env');
  error.name = 'NotCapable';
  return error;
}

/**
 * Runs `make` while the runtime looks like `runtime` (synchronously: the test runner itself needs
 * the real `process` as soon as control goes back to it). A call reads the environment when it
 * starts, before its first await.
 */
function asIf<T>(runtime: { process?: unknown; Deno?: unknown }, make: () => T): T {
  global.process = runtime.process;
  if (runtime.Deno !== undefined) global.Deno = runtime.Deno;
  try {
    return make();
  } finally {
    global.process = realProcess;
    delete global.Deno;
  }
}

const refusingEnv = {
  env: new Proxy(
    {},
    {
      get() {
        throw notCapable();
      },
    },
  ),
};

describe('reading the environment never throws', () => {
  it('no `process` (Workers without nodejs_compat, browsers): unset, and the call says to pass it', async () => {
    const client = createGatewayClient();
    const error = await asIf({ process: undefined }, () => client.models()).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'configuration_error' });
    expect((error as Error).message).toContain('INFERGATE_BASE_URL');
    expect((error as Error).message).toContain('no process.env');
    expect((error as Error).message).toContain('baseURL: env.INFERGATE_BASE_URL');
  });

  it('a refusing process.env (Deno without --allow-env): creating works, calls fail with configuration_error', async () => {
    const client = asIf({ process: refusingEnv }, () =>
      createGatewayClient({ baseURL: 'https://gw.example' }),
    );
    const error = await asIf({ process: refusingEnv }, () => client.models()).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'configuration_error' });
    const message = (error as Error).message;
    expect(message).toContain('INFERGATE_API_KEY');
    expect(message).toContain('refused by the runtime (NotCapable)');
    expect(message).toContain('--allow-env=INFERGATE_BASE_URL,INFERGATE_API_KEY');
  });

  it('Deno.env.get that refuses, without process', async () => {
    const deno = {
      env: {
        get() {
          throw notCapable();
        },
      },
    };
    const client = createGatewayClient({ apiKey: 'k' });
    await expect(
      asIf({ process: undefined, Deno: deno }, () => client.models()),
    ).rejects.toMatchObject({
      code: 'configuration_error',
      message: expect.stringContaining('refused by the runtime (NotCapable)'),
    });
  });

  it('Deno.env.get that answers, without process', () => {
    const deno = {
      env: {
        get: (name: string) => (name === 'INFERGATE_BASE_URL' ? ' https://deno.example ' : ''),
      },
    };
    const client = createGatewayClient();
    expect(asIf({ process: undefined, Deno: deno }, () => client.baseURL)).toBe(
      'https://deno.example/v1',
    );
  });

  it('explicit settings (the Workers form) never read the environment', async () => {
    let auth: string | null = null;
    const client = asIf({ process: refusingEnv }, () =>
      createGatewayClient({
        baseURL: 'https://gw.example',
        apiKey: 'worker-key',
        fetch: async (_url, init) => {
          auth = new Headers(init?.headers).get('authorization');
          return Response.json({ object: 'list', data: [] });
        },
      }),
    );
    await client.models();
    expect(auth).toBe('Bearer worker-key');
  });

  it('readEnv reads undefined, never throws', () => {
    global.process = refusingEnv;
    try {
      expect(readEnv('INFERGATE_API_KEY')).toBeUndefined();
    } finally {
      global.process = realProcess;
    }
  });
});
