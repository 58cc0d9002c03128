/**
 * "Every model tried …" in a `what_to_do` counts the models sent the call that failed it that way
 * (the route's hops), not the models named: a fallback left out before sending (it lacks
 * json_object) did not fail, and with one model asked the advice is that model's own. Through the
 * MCP SDK's Client against the emulator (in-process), a stall's limit passed on a driven clock.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { STALL_LIMIT_MS, stallingServerOfFile } from './stalling-server';

const { gateway, ask, clock, stallFirstChunk, untilChats, budgetIdle } = stallingServerOfFile(
  (ask) => ask({ ...ONE_ASKED, json: undefined }),
);
const general = () => gateway().emulator.scenario.models['community/general']!;
afterEach(() => {
  general().jsonAnswers = null;
});

/** json: true, and a fallback without json_object: skipped, never sent the call. */
const ONE_ASKED = {
  model: 'community/general',
  prompt: 'hi',
  json: true,
  fallback_models: ['community/plain'],
};

interface Refusal {
  code: string;
  what_to_do: string;
  route: { hops: { model: string; outcome: string }[] };
}
const refusalOf = (result: CallToolResult) =>
  (result.structuredContent as { error: Refusal }).error;

describe('what_to_do when one model was asked and the others were left out', () => {
  it('an answer that is not an object: the one model, not "every model tried"', async () => {
    general().jsonAnswers = { invalidShare: 1 };
    const error = refusalOf(await ask(ONE_ASKED));
    expect(error.code).toBe('invalid_structured_output');
    expect(error.route.hops.map((hop) => hop.outcome)).toEqual(['skipped', 'failed']);
    expect(error.what_to_do).toBe(
      // The call named a list already: not "add fallback_models".
      'Call again (the model may answer with an object next time), name other models with json_object from list_models in fallback_models, or pass output_schema to say what the object holds.',
    );
  });

  it('a stall: the model was too slow to start, not "every model tried"', async () => {
    stallFirstChunk('community/general');
    clock.drive();
    const asked = ask(ONE_ASKED);
    await untilChats(1);
    const error = refusalOf(await clock.settledAfter(2 * STALL_LIMIT_MS, asked));
    expect(error.code).toBe('timeout');
    expect(error.route.hops.map((hop) => hop.outcome)).toEqual(['skipped', 'failed']);
    expect(error.what_to_do).toBe(
      'The model was too slow to start answering, and the other models named failed or were skipped (route says why for each): try again, or name other models from list_models in fallback_models.',
    );
    await budgetIdle();
  });
});
