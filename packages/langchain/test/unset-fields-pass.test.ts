// A key whose value is undefined sets nothing, so it passes wherever a key is checked: a shared
// config spread into a model (`{ ...shared }` whose `timeoutMs` is unset) is not refused as a near
// miss of one of ours (core's refuseNearMisses, call/option-groups.ts), while the same key given a
// value is refused saying where it goes.
import { isGatewayError } from '@infergate/core';
import { caught, emulate } from '@infergate/emulator/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const { connection } = emulated;

describe('new GatewayChatModel({ ...shared }) with keys left unset', () => {
  it('takes `timeoutMs: undefined` and a near miss left undefined, and answers', async () => {
    const shared = { timeoutMs: undefined, fallbackModel: undefined };
    const model = new GatewayChatModel({ model: 'community/general', ...connection, ...shared });
    const answer = await model.invoke('hi');
    expect(String(answer.content).length).toBeGreaterThan(0);
  });

  it('refuses the same key given a value, saying where it goes', async () => {
    const error = await caught(
      () =>
        new GatewayChatModel({ model: 'community/general', ...connection, timeoutMs: 5 } as never),
      isGatewayError,
    );
    expect(error.message).toBe(
      'unknown option `timeoutMs` in new GatewayChatModel — use `timeout`',
    );
  });
});
