import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src';

describe('profile.imageInputs: the catalog never says a model sees images', () => {
  it('is unknown for a text-only catalog entry and for a full one, after invoke', async () => {
    const { connection } = await emulate();
    for (const id of ['community/plain', 'community/general']) {
      const model = new GatewayChatModel(id, connection);
      await model.invoke('hello');
      expect(model.profile.imageInputs).toBeUndefined();
      expect(model.profile).toHaveProperty('toolCalling');
    }
  });

  it('is false for a model built with acceptsContentParts: false', async () => {
    const { connection } = await emulate();
    const model = new GatewayChatModel('community/general', {
      ...connection,
      acceptsContentParts: false,
    });
    await model.invoke('hello');
    expect(model.profile.imageInputs).toBe(false);
  });
});
