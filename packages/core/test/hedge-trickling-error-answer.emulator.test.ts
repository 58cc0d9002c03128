// docs/gateway-protocol.md §4.7 (a hedged call: the hedge's delay counts to the first content), §10.1:
// an error answer (a non-2xx status) is no content, even while its body is still being read. A
// hedged call whose first model answers a 502 at once and trickles its JSON body sends its hedge at
// `afterMs` and answers from it, with no first-chunk limit set (before, the headers counted as the
// attempt's start: the call waited for its deadline). Time is the subject: the driven clock.
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayClient } from '../src';
import {
  askedWhen,
  driveClock,
  hedgesOnDrivenClock,
  hi,
  only,
  recordingClient,
  settledAfter,
} from './helpers';
import { answeringModel, trickled502 } from './trickled-answers';

const GENERAL = 'community/general';
const TOOLS = 'community/tools';

/** A recording client whose chat POSTs for GENERAL get a trickled 502 (the others: the emulator's). */
async function trickledGeneral() {
  const gateway = await emulate();
  const { fetch, sent } = answeringModel(gateway, GENERAL, trickled502);
  const { client, events } = recordingClient(gateway, { fetch, maxRetries: 0 });
  await client.models();
  return { client, events, sent };
}

const hedged = { fallbackModels: [TOOLS], hedge: { afterMs: 30, maxExtra: 1 }, timeoutMs: 15_000 };

const calls = [
  {
    name: 'chatStream()',
    call: async (client: GatewayClient) => {
      const stream = await client.chatStream(hi(GENERAL), hedged);
      await stream.result();
      return stream.servedModel;
    },
  },
  {
    name: 'chat()',
    call: async (client: GatewayClient) => (await client.chat(hi(GENERAL), hedged)).servedModel,
  },
];

describe('a hedged call whose first model answers a 502, its JSON body trickling in', () => {
  hedgesOnDrivenClock();

  it.each(calls)('$name: the hedge goes at afterMs and answers', async ({ call }) => {
    const { client, events, sent } = await trickledGeneral();
    driveClock();
    const served = await settledAfter(500, call(client));
    expect(served).toBe(TOOLS);
    expect(sent).toEqual([GENERAL, TOOLS]);
    expect(only(events, 'hedge').map((event) => event.phase)).toEqual(['sent', 'won']);
    expect(askedWhen(events)).toEqual([`0 ${GENERAL}`, `30 ${TOOLS}`]);
  });
});
