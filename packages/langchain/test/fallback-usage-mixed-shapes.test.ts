// docs/gateway-protocol.md §4.3 (`usage`: its counts as the model server reports them), §4.7, §4.8
// item 5: a structured call that moved past refused answers spent each answer's tokens once,
// whatever shape each model server reports them in (a total, or only its parts). `usage_metadata`
// is core's sum (`callUsage`): a hop without `total_tokens` adds its prompt + completion to the
// total, a hop with only `total_tokens` adds that; a call every model refused counts its last
// refusal (the error's own, its route's last hop) once.
import {
  CLAIMED_MODEL,
  partsOnly,
  totalOnly,
  type UsageShape,
  usageReshapedFetch,
  withClaimedModel,
  withOffSchemaModel,
} from '@infergate/emulator/testing';
import type { AIMessage, AIMessageChunk } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel, type GatewayResponseMetadata } from '../src/index';
import { recordingGateway } from './helpers';

const Place = z.object({ city: z.string() });
const QUESTION = 'Where is "Oslo"?';
const BAD = 'x/bad';
const SCHEMA = {
  type: 'json_schema',
  json_schema: { name: 'place', schema: z.toJSONSchema(Place) },
} as const;

/**
 * `CLAIMED_MODEL` (answers off the schema) falling back to `fallback`, on an emulator whose
 * answers from the models in `shapes` report their usage in that shape.
 */
async function modelWith(fallback: string, shapes: Record<string, UsageShape>) {
  const { connection } = await recordingGateway(withOffSchemaModel(withClaimedModel(), BAD));
  return new GatewayChatModel(CLAIMED_MODEL, {
    ...connection,
    fetch: usageReshapedFetch(connection.fetch, shapes),
    fallbackModels: [fallback],
  });
}

/** Each hop's usage as the route carries it, and the answer's own. */
function usages(message: AIMessage | AIMessageChunk) {
  const metadata = message.response_metadata as GatewayResponseMetadata;
  const hops = (metadata.route?.hops ?? []) as { usage?: Record<string, number> }[];
  return { hops: hops.map((hop) => hop.usage), own: metadata.usage as Record<string, number> };
}

async function rawOf(model: GatewayChatModel, options = {}) {
  const result = (await model
    .withStructuredOutput(Place, { includeRaw: true })
    .invoke(QUESTION, options)) as { raw: AIMessage; parsed: unknown };
  return result;
}

describe('usage of a structured call over hops reporting usage in different shapes', () => {
  it('the refused hop without total_tokens: its prompt + completion join the total', async () => {
    const model = await modelWith('community/general', { [CLAIMED_MODEL]: partsOnly });
    const { raw, parsed } = await rawOf(model);
    expect(parsed).toEqual({ city: 'Oslo' });
    const { hops, own } = usages(raw);
    const refused = hops[0]!;
    expect(refused).not.toHaveProperty('total_tokens');
    const input = refused.prompt_tokens! + own.prompt_tokens!;
    const output = refused.completion_tokens! + own.completion_tokens!;
    expect(own.total_tokens).toBeGreaterThan(0);
    expect(raw.usage_metadata).toMatchObject({
      input_tokens: input,
      output_tokens: output,
      total_tokens: refused.prompt_tokens! + refused.completion_tokens! + own.total_tokens!,
    });
  });

  it('the refused hop with only total_tokens: its total joins the total', async () => {
    const model = await modelWith('community/general', { [CLAIMED_MODEL]: totalOnly });
    const { raw } = await rawOf(model);
    const { hops, own } = usages(raw);
    expect(Object.keys(hops[0]!)).toEqual(['total_tokens']);
    expect(raw.usage_metadata).toMatchObject({
      input_tokens: own.prompt_tokens,
      output_tokens: own.completion_tokens,
      total_tokens: hops[0]!.total_tokens! + own.total_tokens!,
    });
  });

  it('stream(): the answer without total_tokens, the refused hop with one', async () => {
    const model = await modelWith('community/general', { 'community/general': partsOnly });
    let joined: AIMessageChunk | undefined;
    for await (const chunk of await model.stream(QUESTION, { response_format: SCHEMA })) {
      joined = joined ? joined.concat(chunk) : chunk;
    }
    const { hops, own } = usages(joined!);
    expect(own).not.toHaveProperty('total_tokens');
    expect(hops[0]!.total_tokens).toBeGreaterThan(0);
    expect(joined?.usage_metadata?.total_tokens).toBe(
      hops[0]!.total_tokens! + own.prompt_tokens! + own.completion_tokens!,
    );
  });

  it('includeRaw on a call every model refused: each refusal counted once, the last (the error’s) too', async () => {
    const model = await modelWith(BAD, { [CLAIMED_MODEL]: totalOnly, [BAD]: partsOnly });
    const { raw, parsed } = await rawOf(model, { structuredOutput: { lastAnswer: 'checked' } });
    expect(parsed).toBeNull();
    const { hops } = usages(raw);
    const route = (raw.response_metadata as GatewayResponseMetadata).route;
    expect(route?.hops.map(({ outcome }) => outcome)).toEqual(['failed', 'failed']);
    const [first, last] = [hops[0]!, hops[1]!];
    expect(raw.usage_metadata).toMatchObject({
      input_tokens: last.prompt_tokens,
      output_tokens: last.completion_tokens,
      total_tokens: first.total_tokens! + last.prompt_tokens! + last.completion_tokens!,
    });
  });
});
