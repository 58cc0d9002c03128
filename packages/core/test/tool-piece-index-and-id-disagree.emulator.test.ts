import { choiceZeroChunk, emulate, streamedAnswer } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src';
import { hi } from './helpers';

// docs/gateway-protocol.md §5.4: a streamed tool-call piece whose `index` is one known call's and
// whose `id` is another known call's (at another index) belongs to neither for sure: it is left
// out, both calls as they were — not appended to the call at its index, which would spoil that
// call's arguments (the AI SDK's openai-compatible provider drops it too). One id the server gave
// calls at two indexes (DeepSeek) is no contradiction: pieces there still follow their index.
const MODEL = 'community/streamer';
type Piece = Record<string, unknown>;
const piece = (
  index: number | undefined,
  id: string | undefined,
  name: string | undefined,
  args: string,
): Piece => ({
  ...(index !== undefined && { index }),
  ...(id !== undefined && { id }),
  ...(name !== undefined && { type: 'function' }),
  function: { ...(name !== undefined && { name }), arguments: args },
});
const streamOf = (pieces: Piece[]) =>
  streamedAnswer(MODEL, [
    choiceZeroChunk({ role: 'assistant' }),
    ...pieces.map((p) => choiceZeroChunk({ tool_calls: [p] })),
    choiceZeroChunk({}, 'tool_calls'),
  ]);

async function streamed(pieces: Piece[]) {
  const gateway = await emulate();
  const fetch: typeof globalThis.fetch = async (input, init) =>
    init?.method === 'POST' ? streamOf(pieces) : gateway.connection.fetch(input, init);
  const client = createGatewayClient({ ...gateway.connection, fetch, maxRetries: 0 });
  const stream = await client.chatStream(hi(MODEL));
  const deltas: string[] = [];
  for await (const event of stream) {
    if (event.type === 'tool-call-delta') deltas.push(event.argumentsDelta);
  }
  const calls = (await stream.result()).toolCalls.map(({ id, name, arguments: args }) => ({
    id,
    name,
    args,
  }));
  return { calls, deltas };
}

const call = (id: string, name: string, args: string) => ({ id, name, args });

/**
 * A piece given as `[index, id, name, arguments]` opens a call; `[index, id, arguments]` goes on
 * with one (no name).
 */
type Given =
  | [index: number, id: string, name: string, args: string]
  | [index: number, id: string, args: string];
const pieceOf = (given: Given): Piece =>
  given.length === 4 ? piece(...given) : piece(given[0], given[1], undefined, given[2]);

describe('a tool-call piece whose index and id name two different calls', () => {
  // Each case: the pieces streamed, the calls the stream's result assembles, and the argument
  // deltas its events carry (a piece left out has no event: the events assemble to the same answer).
  // biome-ignore format: one case's pieces a line
  it.each<[string, Given[], ReturnType<typeof call>[], string[]]>([
    [
      'joins neither: the call at its index keeps its own arguments',
      [[0, 'A', 'a', '{"x":'], [1, 'B', 'b', '{"y":'], [1, 'A', '1}'], [1, 'B', '2}']],
      [call('A', 'a', '{"x":'), call('B', 'b', '{"y":2}')],
      ['{"x":', '{"y":', '2}'],
    ],
    [
      'one id at two indexes (DeepSeek) is no contradiction: each piece follows its index',
      [[0, 'X', 'a', '{"x":'], [1, 'X', 'b', '{"y":'], [0, 'X', '1}'], [1, 'X', '2}']],
      // (The second call's id is made its own: which one, this test leaves open.)
      [call('X', 'a', '{"x":1}'), call(expect.any(String), 'b', '{"y":2}')],
      ['{"x":', '{"y":', '1}', '2}'],
    ],
    [
      'calls told apart by id at one index still join by id',
      [[0, 'A', 'a', '{"x":'], [0, 'B', 'b', '{"y":'], [0, 'A', '1}'], [0, 'B', '2}']],
      [call('A', 'a', '{"x":1}'), call('B', 'b', '{"y":2}')],
      ['{"x":', '{"y":', '1}', '2}'],
    ],
  ])('%s', async (_, given, expectedCalls, expectedDeltas) => {
    const { calls, deltas } = await streamed(given.map(pieceOf));
    expect(calls).toEqual(expectedCalls);
    expect(deltas).toEqual(expectedDeltas);
  });
});
