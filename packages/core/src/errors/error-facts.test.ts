import { describe, expect, it } from 'vitest';
import { errorFacts, GatewayError, type GatewayErrorOptions } from './errors';

/** Every option a GatewayError takes, each set (the type makes a new option a compile error here). */
const EVERY_OPTION: Required<GatewayErrorOptions> = {
  code: 'invalid_structured_output',
  message: 'refused',
  status: 502,
  type: 'server_error',
  retryAfterMs: 1000,
  body: '{"error":{}}',
  data: { error: {} },
  responseHeaders: { 'retry-after': '1' },
  requestedModel: 'a',
  servedModel: 'b',
  model: 'b',
  missing: ['tools'],
  capabilities: ['chat'],
  alternatives: ['c'],
  field: 'messages',
  stall: { phase: 'first-chunk', waitedMs: 5, limitMs: 5 },
  skipped: [{ model: 'd', reason: 'not_in_catalog', detail: 'not in the catalog' }],
  route: { requested: 'a', hops: [] } as unknown as Required<GatewayErrorOptions>['route'],
  invalidOutput: { method: 'json_schema', text: 'prose', issues: [] },
  usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
  cause: new Error('inner'),
};

describe('errorFacts (the one list of what an error tells, for adapters)', () => {
  it('holds the code and every field set but the HTTP response (body, data, headers)', () => {
    const error = new GatewayError(EVERY_OPTION);
    const {
      message: _m,
      cause: _c,
      body: _b,
      data: _d,
      responseHeaders: _h,
      ...facts
    } = EVERY_OPTION;
    expect(errorFacts(error)).toEqual(facts);
  });

  it('leaves out the fields not set', () => {
    const error = new GatewayError({ code: 'model_not_found', message: 'no', status: 404 });
    expect(errorFacts(error)).toEqual({ code: 'model_not_found', status: 404 });
  });
});
