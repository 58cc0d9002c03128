// `maxTokens: -1` means "no limit", as `ChatOpenAI` reads it: no `max_tokens` is sent (a model
// server would refuse a negative one).
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { recordingGateway } from './helpers';

describe('maxTokens: -1', () => {
  it('sends no max_tokens, on invoke and stream; any other value is sent', async () => {
    const { bodies, connection } = await recordingGateway();
    const unlimited = new GatewayChatModel('community/general', { ...connection, maxTokens: -1 });
    await unlimited.invoke('hi');
    for await (const _ of await unlimited.stream('hi'));
    await new GatewayChatModel('community/general', { ...connection, maxTokens: 7 }).invoke('hi');
    expect(bodies.map((body) => body.max_tokens)).toEqual([undefined, undefined, 7]);
    expect(bodies[0]).not.toHaveProperty('max_tokens');
  });
});
