// docs/gateway-protocol.md §4.1 (request texts are UTF-8): a message's reasoning sent back and a
// participant's `name` are texts the server reads too, so a lone surrogate in them is refused
// before sending as one in `content` is (rv-28f F2).
import { emulate } from '@infergate/emulator/testing';
import { expect, it } from 'vitest';
import { caught, clientOn, totalRequests } from './helpers';

const CUT = 'Привіт 😀 світ'.slice(0, 8);

it.each([
  ['reasoning_content', { role: 'assistant', content: 'ok', reasoning_content: CUT }],
  ['name', { role: 'user', content: 'hi', name: CUT }],
])(
  'a lone surrogate in a message’s %s: refused naming it, nothing sent',
  async (field, message) => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const messages = [{ role: 'user', content: 'hi' }, message, { role: 'user', content: 'more' }];
    const error = await caught(() =>
      client.chat({ model: 'community/general', messages } as never),
    );
    expect(error).toMatchObject({ code: 'invalid_request_error', field: `messages[1].${field}` });
    expect(error.message).toContain('has a lone surrogate at index 7');
    expect(totalRequests(gateway.emulator)).toBe(0);
  },
);
