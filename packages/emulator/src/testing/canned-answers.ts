// docs/gateway-protocol.md §4.3 (an answer is choice 0), §4.6 (the answering model).
// Chat answers the emulator does not give, for tests to serve from their `fetch`.
//
// A chat answer with two choices (`n: 2`, or a server that sends them unasked), each calling
// `weather`: choice 0 for Kyiv (`call_a`), choice 1 for Lviv (`call_b`). Streamed, both choices'
// pieces share chunks and choice 1 then starts a call of its own (`call_c`, `time`); whole, choice 1 comes first, so a reader must go by `index`. The emulator
// itself answers one choice; tests that check "the answer is choice 0" serve this instead.

const call = (id: string | undefined, name: string | undefined, args: string) => ({
  index: 0,
  ...(id && { id, type: 'function' }),
  function: { ...(name && { name }), arguments: args },
});

const message = (id: string, city: string) => ({
  role: 'assistant',
  content: null,
  tool_calls: [
    { id, type: 'function', function: { name: 'weather', arguments: `{"city":"${city}"}` } },
  ],
});

function twoChoicesSse(model: string): string {
  const both = (zero: object, one: object, finish: string | null = null) =>
    `data: ${JSON.stringify({
      id: 'c1',
      object: 'chat.completion.chunk',
      model,
      choices: [
        { index: 0, delta: zero, finish_reason: finish },
        { index: 1, delta: one, finish_reason: finish },
      ],
    })}\n\n`;
  return [
    both(
      { tool_calls: [call('call_a', 'weather', '{"city":"Ky')] },
      { tool_calls: [call('call_b', 'weather', '{"city":"Lv')] },
    ),
    both(
      { tool_calls: [call(undefined, undefined, 'iv"}')] },
      { tool_calls: [call(undefined, undefined, 'iv"}')] },
    ),
    // Choice 1 alone, with a piece that starts no call of choice 0's either.
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model, choices: [{ index: 1, delta: { tool_calls: [call('call_c', 'time', '{}')] } }] })}\n\n`,
    both({}, {}, 'tool_calls'),
    'data: [DONE]\n\n',
  ].join('');
}

/**
 * The two-choice answer as the gateway would send it for `model`: an SSE stream when `stream`,
 * else a whole completion (choice 1 listed first), with `X-Service-Model`.
 */
export function twoChoicesAnswer(model: string, stream: boolean): Response {
  const headers = { 'x-service-model': model };
  if (!stream) {
    return Response.json(
      {
        id: 'c1',
        object: 'chat.completion',
        model,
        choices: [
          { index: 1, message: message('call_b', 'Lviv'), finish_reason: 'tool_calls' },
          { index: 0, message: message('call_a', 'Kyiv'), finish_reason: 'tool_calls' },
        ],
      },
      { headers },
    );
  }
  return new Response(twoChoicesSse(model), {
    headers: { ...headers, 'content-type': 'text/event-stream' },
  });
}

/**
 * An answer "hi" from `model` with no `X-Service-Model` header, as a proxy that drops it or a
 * server that is not the gateway sends it: the answering model is only the body's (or the
 * chunks') `model`. An SSE stream when `stream`, else a whole completion.
 */
export function unheadedAnswer(model: string, stream: boolean): Response {
  const common = { id: 'c9', created: 1, model };
  if (!stream) {
    return Response.json({
      ...common,
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
  }
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ ...common, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const sse = `${chunk({ role: 'assistant', content: 'hi' })}${chunk({}, 'stop')}data: [DONE]\n\n`;
  return new Response(sse, { headers: { 'content-type': 'text/event-stream' } });
}

/**
 * The JSON body of a whole chat answer of `model` (id `c1`) whose choice 0 says `content` and
 * finishes `stop`, with `fields` added at its top level (`usage`…): for a test whose `fetch`
 * answers a chat itself.
 */
export function chatCompletion(model: string, content: unknown, fields: object = {}) {
  return {
    id: 'c1',
    object: 'chat.completion',
    created: 0,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    ...fields,
  };
}

/** One chunk of a streamed chat answer: its `choices`, and any other top-level field (`usage`…). */
export interface StreamChunk {
  choices: object[];
  [field: string]: unknown;
}

/**
 * The SSE text of a streamed chat answer of `model` made of `chunks` (id `c1`), then `[DONE]`:
 * for a test serving from its `fetch` what the emulator does not send (a second choice's finish).
 */
export function chatSse(model: string, chunks: readonly StreamChunk[]): string {
  const events = chunks.map((chunk) => `data: ${chatChunkJson(model, chunk)}\n\n`);
  return [...events, 'data: [DONE]\n\n'].join('');
}

/**
 * The JSON text of one `chunk` of a streamed chat answer of `model` (id `c1`): one SSE event's
 * data, for a test that feeds a stream decoder its events one at a time.
 */
export function chatChunkJson(model: string, chunk: StreamChunk): string {
  return JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model, ...chunk });
}

/**
 * The SSE text of a streamed answer "Hi" of `model` whose choice 0 finishes (`stop`) twice, as
 * OpenRouter sends it: a finish chunk, then one with the same finish_reason and `last`'s fields
 * (its `usage`, `system_fingerprint`…). A reader hands out one finish.
 */
export function repeatedFinishSse(model: string, last: object = {}): string {
  const finish = { index: 0, delta: {}, finish_reason: 'stop' };
  return chatSse(model, [
    { choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' } }] },
    { choices: [finish] },
    { choices: [finish], ...last },
  ]);
}

/**
 * The SSE text of a stream of `model` with two parallel tool calls told apart only by `id`, as
 * some servers send them (docs/gateway-protocol.md §5.4): `call_a` (`weather`, Rome) and `call_b`
 * (`time`, Paris), their pieces interleaved, each carrying its call's id, with `index` on every
 * piece when given (else none), then the `tool_calls` finish.
 */
export function idOnlyToolCallsSse(model: string, index?: number): string {
  const at = index === undefined ? {} : { index };
  const pieces = [
    { ...at, id: 'call_a', type: 'function', function: { name: 'weather', arguments: '{"city":' } },
    { ...at, id: 'call_b', type: 'function', function: { name: 'time', arguments: '{"city":' } },
    { ...at, id: 'call_a', function: { arguments: '"Rome"}' } },
    { ...at, id: 'call_b', function: { arguments: '"Paris"}' } },
  ];
  return chatSse(model, [
    { choices: [{ index: 0, delta: { role: 'assistant' }, finish_reason: null }] },
    ...pieces.map((piece) => ({
      choices: [{ index: 0, delta: { tool_calls: [piece] }, finish_reason: null }],
    })),
    { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
  ]);
}

/**
 * The SSE text of a stream of `model` that fails after content, as the gateway streams an upstream
 * failure met once a chunk was sent: a chunk saying "par", then an error event (`error`), then
 * `[DONE]` with no finish_reason.
 */
export function failingAfterContentSse(
  model: string,
  error: { message: string; code: string },
): string {
  const content = { index: 0, delta: { role: 'assistant', content: 'par' }, finish_reason: null };
  return chatSse(model, [{ choices: [content] }]).replace(
    'data: [DONE]',
    `data: ${JSON.stringify({ error })}\n\ndata: [DONE]`,
  );
}

/**
 * The SSE text of a streamed answer of `model` with two choices: "Hi" (choice 0, finishing `stop`)
 * and "Hello" (choice 1, finishing `length` in a later chunk); `finishes.zero` and `finishes.one`
 * are more fields of each finish's chunk (`service_tier`…). A reader must end with choice 0's.
 */
export function twoTextChoicesSse(
  model: string,
  finishes: { zero?: object; one?: object } = {},
): string {
  const said = (index: number, content: string) => ({
    index,
    delta: { role: 'assistant', content },
    finish_reason: null,
  });
  return chatSse(model, [
    { choices: [said(0, 'Hi'), said(1, 'Hello')] },
    { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], ...finishes.zero },
    { choices: [{ index: 1, delta: {}, finish_reason: 'length' }], ...finishes.one },
  ]);
}

/**
 * A stream whose chunks carry one choice per delta of `deltas`, none with an `index` (a server that
 * omits it): the deltas, then each choice's `finish`, with the usage.
 */
export function indexlessChoicesSse(model: string, deltas: object[], finish: string): string {
  return chatSse(model, [
    { choices: deltas.map((delta) => ({ delta: { role: 'assistant', ...delta } })) },
    {
      choices: deltas.map(() => ({ delta: {}, finish_reason: finish })),
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
    },
  ]);
}

/** One whole tool call of a `weather` tool, as a streamed delta's `tool_calls` item carries it. */
export function weatherCall(id: string, city: string) {
  return {
    index: 0,
    id,
    type: 'function',
    function: { name: 'weather', arguments: JSON.stringify({ city }) },
  };
}
