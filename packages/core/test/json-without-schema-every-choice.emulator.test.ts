import { chatsAnsweredBy, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src/index';

// JSON with no schema (`response_format: json_object`) and `n` > 1 (docs/gateway-protocol.md
// §4.8): every choice's text is read by the one rule (a fence's content, the JSON beside prose),
// not choice 0's alone.

describe('json_object with n > 1: every choice read by the one rule', () => {
  it("a fenced choice 1 is its JSON, as choice 0's is", async () => {
    const { connection } = await emulate();
    const fetch = chatsAnsweredBy(connection, (body) =>
      Response.json({
        id: 'c1',
        object: 'chat.completion',
        created: 1,
        model: body.model,
        choices: ['```json\n{"a":1}\n```', 'Sure:\n```json\n{"a":2}\n```'].map(
          (content, index) => ({
            index,
            message: { role: 'assistant', content },
            finish_reason: 'stop',
          }),
        ),
      }),
    );
    const client = createGatewayClient({ ...connection, fetch });
    const result = await client.chat({
      model: 'community/json-object',
      messages: [{ role: 'user', content: 'Two JSON objects, please.' }],
      response_format: { type: 'json_object' },
      n: 2,
    });
    expect(result.answer.text).toBe('{"a":1}');
    expect(result.choices?.map((choice) => choice.text)).toEqual(['{"a":1}', '{"a":2}']);
  });
});
