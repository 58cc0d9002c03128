/**
 * `startHttpServer` and `serveStdio` refuse an unknown option before anything happens, naming the
 * closest known one: a misspelt `token` must not leave the endpoint open without authentication.
 */
import { Server } from 'node:net';
import { PassThrough } from 'node:stream';
import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it, vi } from 'vitest';
import {
  type HttpServerOptions,
  type SessionOptions,
  serveStdio,
  startHttpServer,
} from '../src/index';
import { harnessOfFile } from './harness';

const harness = harnessOfFile();

describe('transport options', () => {
  it.each([
    {
      what: 'refuses `tokn` before listening: no port is opened',
      typo: { tokn: 'secret' },
      meant: 'token',
    },
    {
      what: 'names the closest of its other options too',
      typo: { allowedOrigin: ['http://localhost:5173'] },
      meant: 'allowedOrigins',
    },
  ])('startHttpServer $what', async ({ typo, meant }) => {
    const listen = vi.spyOn(Server.prototype, 'listen');
    const [key] = Object.keys(typo);
    const options = { port: 0, ...typo } as HttpServerOptions;
    const error = await caught(() => startHttpServer(harness().mcp, options), isGatewayError);
    expect(error.code).toBe('configuration_error');
    expect(error.field).toBe(key);
    expect(error.message).toBe(
      `unknown option \`${key}\` in startHttpServer — did you mean \`${meant}\`?`,
    );
    // The value given is never quoted: a misspelt token is the token.
    expect(error.message).not.toContain('secret');
    expect(listen).not.toHaveBeenCalled();
  });

  it('serveStdio refuses `stdn` before reading stdin', async () => {
    const stdin = new PassThrough();
    const options = { stdin, stdout: new PassThrough(), stdn: stdin };
    const error = await caught(
      () => serveStdio(harness().mcp, options as Parameters<typeof serveStdio>[1]),
      isGatewayError,
    );
    expect(error.code).toBe('configuration_error');
    expect(error.message).toBe('unknown option `stdn` in serveStdio — did you mean `stdin`?');
    expect(stdin.listenerCount('data')).toBe(0);
  });

  it('createServer and connect refuse `fils: false`: a session must not get `*_path` by a typo', async () => {
    const typo = { fils: false } as SessionOptions;
    const made = await caught(() => harness().mcp.createServer(typo), isGatewayError);
    expect(made.message).toBe('unknown option `fils` in createServer — did you mean `files`?');
    const [serverSide] = InMemoryTransport.createLinkedPair();
    const start = vi.spyOn(serverSide, 'start');
    const connected = await caught(() => harness().mcp.connect(serverSide, typo), isGatewayError);
    expect(connected.message).toBe('unknown option `fils` in connect — did you mean `files`?');
    expect(start).not.toHaveBeenCalled();
  });
});
