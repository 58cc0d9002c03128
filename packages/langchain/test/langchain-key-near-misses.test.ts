// A near miss of LangChain's own keys (`maxConcurency`, `timout`, `singal`) is refused before any
// request, naming the key meant, as a near miss of ours is: a typo would leave the call without its
// deadline, abort or queue. LangChain's and LangGraph's own keys still pass; the closest name is
// the one with the key's words (`maxConcurrencey` → `maxConcurrency`, not `maxConcurrencyPerKey`).
// Core's steering options in `modelKwargs`, a model's or a call's, are refused too: sent as
// request fields, they would reach the model server unsteered.
import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { recordingGateway } from './helpers';
import { refusedCallKey, refusedModelKey } from './refused-before-sending';

const FIELD_TYPOS: [string, string][] = [
  ['maxConcurency', 'maxConcurrency'],
  ['maxConcurrencey', 'maxConcurrency'],
  ['recursionLimt', 'recursionLimit'],
  ['onFailedAtempt', 'onFailedAttempt'],
  ['disableStreamng', 'disableStreaming'],
  ['outputVerison', 'outputVersion'],
];

const CALL_TYPOS: [string, unknown, string][] = [
  ['timout', 1, 'timeout'],
  ['singal', AbortSignal.abort(), 'signal'],
  ['metdata', { a: 1 }, 'metadata'],
  ['maxConcurency', 1, 'maxConcurrency'],
];

describe("a near miss of LangChain's own keys", () => {
  it.each(FIELD_TYPOS)(
    'new GatewayChatModel({ %s }) is refused, naming `%s`',
    async (key, meant) => {
      const error = await refusedModelKey(key);
      expect(error.code).toBe('configuration_error');
      expect(error.message).toBe(
        `unknown option \`${key}\` in new GatewayChatModel — did you mean \`${meant}\`?`,
      );
    },
  );

  it.each(CALL_TYPOS)(
    'invoke(input, { %s }) is refused before any request',
    async (key, value, meant) => {
      const { error, bodies } = await refusedCallKey(key, value);
      expect(error.code).toBe('invalid_request_error');
      expect(error.message).toBe(
        `unknown option \`${key}\` in call options — did you mean \`${meant}\`?`,
      );
      expect(bodies).toEqual([]);
    },
  );

  it("LangChain's and LangGraph's own keys pass", async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    await model.invoke('hi', {
      configurable: { thread_id: 't' },
      callbacks: [],
      runName: 'run',
      runId: '00000000-0000-4000-8000-000000000000',
      tags: ['t'],
      metadata: { m: 1 },
      recursionLimit: 10,
      signal: new AbortController().signal,
      timeout: 60_000,
      maxConcurrency: 2,
      store: undefined,
      writer: () => {},
      context: {},
    } as never);
    expect(bodies).toHaveLength(1);
  });
});

describe("core's steering options in modelKwargs", () => {
  const KWARGS: [string, string][] = [
    ['fallback_models', 'fallbackModels'],
    ['fallbackModel', 'fallbackModels'],
    ['fallbackModels', 'fallbackModels'],
    ['first_chunk_timeout_ms', 'firstChunkTimeoutMs'],
  ];

  it.each(KWARGS)("a model's modelKwargs { %s } is refused, naming `%s`", async (key, meant) => {
    const { connection } = await recordingGateway();
    const error = await caught(
      () =>
        new GatewayChatModel('community/general', {
          ...connection,
          modelKwargs: { [key]: ['community/tools'] },
        }),
      isGatewayError,
    );
    expect(error.code).toBe('configuration_error');
    expect(error.message).toContain(`unknown option \`${key}\` in GatewayChatModel modelKwargs`);
    expect(error.message).toContain(`\`${meant}\` is no request field`);
  });

  it.each(KWARGS)(
    "a call's modelKwargs { %s } is refused before any request",
    async (key, meant) => {
      const { bodies, connection } = await recordingGateway();
      const model = new GatewayChatModel('community/general', connection);
      const error = await caught(
        () => model.invoke('hi', { modelKwargs: { [key]: ['community/tools'] } }),
        isGatewayError,
      );
      expect(error.code).toBe('invalid_request_error');
      expect(error.message).toContain(`unknown option \`${key}\` in call options.modelKwargs`);
      expect(error.message).toContain(`\`${meant}\``);
      expect(bodies).toEqual([]);
    },
  );

  it('other request fields in modelKwargs are sent', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', {
      ...connection,
      modelKwargs: { top_k: 4, fallback: 'x' },
    });
    await model.invoke('hi');
    expect(bodies[0]).toMatchObject({ top_k: 4, fallback: 'x' });
  });
});
