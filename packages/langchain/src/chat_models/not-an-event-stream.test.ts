// docs/gateway-protocol.md §10.4 (`invalid_response`), through LangChain's `stream`: a 200
// text/plain body to a stream request ("Service under maintenance") is core's `invalid_response`
// with its body, sent once, not a lost stream retried.
import { caught, chatsAnsweredBy, emulate } from '@infergate/emulator/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { GatewayChatModel } from './gateway-chat-model';

const emulated = await emulate({ hooks: { afterEach, afterAll } });

describe('GatewayChatModel.stream answered 200 text/plain, no event stream', () => {
  it('fails invalid_response with the body, the request sent once', async () => {
    const sent: object[] = [];
    const fetch = chatsAnsweredBy(emulated.connection, (body) => {
      sent.push(body);
      return new Response('Service under maintenance', {
        headers: { 'content-type': 'text/plain' },
      });
    });
    const model = new GatewayChatModel('community/general', {
      ...emulated.connection,
      fetch,
      maxRetries: 2,
    });
    const error = await caught(async () => {
      for await (const _ of await model.stream('hi')) {
        // (No chunk comes.)
      }
    });
    expect(error).toMatchObject({
      code: 'invalid_response',
      status: 200,
      body: 'Service under maintenance',
    });
    expect(sent).toHaveLength(1);
  });
});
