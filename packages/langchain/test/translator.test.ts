import { caught, emulate } from '@infergate/emulator/testing';
import { AIMessage, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import { RunnableLambda } from '@langchain/core/runnables';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { GatewayChatModel, GatewayTranslator, isGatewayError } from '../src/index';

/** 40 paragraphs of about 4 KB: one translation request each. */
const LONG_TEXT = Array.from({ length: 40 }, (_, i) => `Paragraph ${i}. ${'word '.repeat(800)}`)
  .join('\n\n')
  .trim();

describe('GatewayTranslator: a long text whose piece fails', () => {
  it('stops the pieces still queued or in flight, and rejects once they have ended', async () => {
    const gateway = await emulate();
    const { emulator, connection } = gateway;
    // Three pieces are held in flight; the fourth fails at once with a 400 (not retried), while
    // the other 36 wait for a slot of the key's 4.
    const release = gateway.hold('translations');
    emulator.injectFault({
      fault: 'upstream_json',
      endpoint: 'translations',
      afterRequests: 3,
      times: 1,
    });
    const translator = new GatewayTranslator({ ...connection, targetLanguage: 'uk' });
    try {
      const error = await caught(translator.invoke(LONG_TEXT));
      expect(isGatewayError(error) && [error.code, error.status]).toEqual(['upstream_error', 400]);
      // The held pieces were cut (their slots are back) and the queued ones were not sent: before
      // the fix the held ones stayed and the 36 others followed, after the caller had its error.
      await gateway.untilIdle({ what: 'the held pieces cut', timeoutMs: 10_000 });
      // 4 in flight, plus at most the queued piece that took the failed piece's slot before the
      // stop reached it (cut at once): `translate` takes no `AttemptPolicy.failed`, which would
      // stop it before the slot is given back, as `embedMany`'s batches are.
      expect(gateway.counters.requests.translations).toBeLessThanOrEqual(5);
    } finally {
      release();
    }
  });

  it('batch: a failed text stops its own pieces only; the other texts are translated', async () => {
    const gateway = await emulate();
    const { emulator, connection } = gateway;
    emulator.injectFault({ fault: 'upstream_json', endpoint: 'translations', times: 1 });
    const translator = new GatewayTranslator({
      ...connection,
      targetLanguage: 'uk',
      maxRetries: 0,
    });
    const [failed, short] = await translator.batch(
      [LONG_TEXT, 'hello'],
      { maxConcurrency: 1 },
      {
        returnExceptions: true,
      },
    );
    expect(isGatewayError(failed) && failed.status).toBe(400);
    expect(short).toBe('[uk] hello');
    // The failing first piece stopped the 39 others: at most the 3 in flight with it and the one
    // that took its slot were sent, then 'hello' (before the fix: all 40, then 'hello').
    expect(gateway.counters.requests.translations).toBeLessThanOrEqual(6);
  });
});

describe('GatewayTranslator: what it takes', () => {
  it("translates a chat model's answer in model.pipe(translator)", async () => {
    const { connection } = await emulate();
    const model = new GatewayChatModel('community/general', connection);
    const translator = new GatewayTranslator<BaseMessage>({ ...connection, targetLanguage: 'uk' });
    expectTypeOf(translator.invoke(new AIMessage('hi'))).resolves.toEqualTypeOf<string>();
    const answer = await model.invoke('hello');
    expect(await model.pipe(translator).invoke('hello')).toBe(`[uk] ${answer.text}`);
    const messages = [new HumanMessage('good morning'), new AIMessage('good night')];
    expect(await translator.batch(messages)).toEqual(['[uk] good morning', '[uk] good night']);
  });

  it('refuses anything else with a GatewayError naming what it was given, sending nothing', async () => {
    const gateway = await emulate();
    const translator = new GatewayTranslator({ ...gateway.connection, targetLanguage: 'uk' });
    const given = [{ text: 'hi' }, 42, null, ['hi'], new Map()] as unknown as string[];
    const errors = await translator.batch(given, undefined, { returnExceptions: true });
    expect(errors.map((error) => isGatewayError(error) && error.code)).toEqual(
      Array(5).fill('invalid_request_error'),
    );
    expect(errors.map((error) => (error as Error).message.split(', got ')[1])).toEqual([
      'an object with text',
      '42',
      'null',
      'an array',
      'a Map',
    ]);
    const piped = RunnableLambda.from(() => ({ text: 'hi' })).pipe(
      translator as unknown as GatewayTranslator<never>,
    );
    const error = await caught(piped.invoke(undefined));
    expect(isGatewayError(error) && error.message).toBe(
      'input: GatewayTranslator takes a string, a Document or a message, got an object with text',
    );
    expect(gateway.counters.requests.translations).toBe(0);
  });
});
