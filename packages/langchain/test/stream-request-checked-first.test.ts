/**
 * A request core refuses is refused before anything is sent on the stream path too (rv-lc10 F3):
 * `.stream()` read `GET /models` (whether the model streams) before core checked the messages,
 * while `invoke` sent nothing.
 */
import { describe, expect, it } from 'vitest';
import { entryPoints, refusedBeforeSending } from './refused-before-sending';

describe('a chat with no messages', () => {
  it.each(entryPoints([]))('%s: refused naming messages, with nothing sent', async (_, run) => {
    const { refused, sent } = await refusedBeforeSending(run);
    expect(refused).toMatchObject({ code: 'invalid_request_error', field: 'messages' });
    expect(sent).toEqual([]);
  });
});
