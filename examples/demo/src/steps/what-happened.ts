import { createGateway } from '@infergate/ai-sdk';
import type { GatewayDoneEvent, GatewayEvent, GatewayStartEvent } from '@infergate/core';
import { generateText, streamText } from 'ai';
import { line, ok, style } from '../terminal.ts';
import { expect, type Step } from '../tour.ts';

/** One event as a line of the call's timeline (ms since the call began). */
function describe(event: GatewayEvent, startedAt: number): string {
  const at = style.dim(`+${String(event.time - startedAt).padStart(5)} ms`);
  switch (event.type) {
    case 'start':
      return `${at}  start     ${event.method} ${event.path}, model ${event.requestedModel ?? '-'}`;
    case 'queued':
      return `${at}  queued    attempt ${event.attempt} asks for a slot (its provider's 1, then the key's)`;
    case 'dequeued':
      return `${at}  slot      attempt ${event.attempt} got one after ${Math.round(event.waitMs)} ms`;
    case 'attempt':
      return `${at}  attempt   ${event.attempt} sent`;
    case 'response': {
      const outcome = event.ok
        ? `HTTP ${event.status}`
        : `HTTP ${event.status ?? '-'} ${event.code ?? ''}`.trim();
      const wait = event.retryAfterMs === undefined ? '' : `, Retry-After ${event.retryAfterMs} ms`;
      return `${at}  response  attempt ${event.attempt}: ${outcome}${wait}`;
    }
    case 'retry':
      return `${at}  retry     in ${event.delayMs} ms (${event.reason}), holding no slot`;
    case 'released':
      return `${at}  released  the slot of attempt ${event.attempt}`;
    case 'fallback':
      return `${at}  fallback  ${event.requestedModel} → ${style.bold(event.servedModel)}`;
    case 'model-skipped':
      return `${at}  skipped   ${event.model}: ${event.detail}`;
    case 'model-deferred':
      return `${at}  deferred  ${event.model} behind ${event.ahead} (${event.reason})`;
    case 'entry-skipped':
      return `${at}  skipped   the catalog's entry ${event.index} (no string id)`;
    case 'failover':
      return `${at}  failover  ${event.from} → ${style.bold(event.to)} (${event.reason}), at once`;
    case 'hedge':
      return event.phase === 'sent'
        ? `${at}  hedge     ${event.from} slow for ${Math.round(event.waitedMs ?? 0)} ms → ${style.bold(event.model)}`
        : `${at}  hedge     won by the ${event.winner} attempt (${event.model}), ${event.lost} aborted`;
    case 'hedge-skipped':
      return `${at}  no hedge  ${event.model} slow for ${Math.round(event.waitedMs)} ms, none sent (${event.reason})`;
    case 'circuit-open':
      return `${at}  breaker   ${event.model} is skipped for ${event.cooldownMs} ms`;
    case 'circuit-probe':
      return `${at}  breaker   this call probes ${event.model}`;
    case 'circuit-close':
      return `${at}  breaker   ${event.model} answered: closed again`;
    case 'done': {
      const tokens = event.usage
        ? `, tokens ${event.usage.inputTokens ?? '?'} in / ${event.usage.outputTokens ?? '?'} out`
        : '';
      const end = event.ok ? 'ok' : `failed (${event.error?.code})`;
      return `${at}  done      ${end} in ${Math.round(event.durationMs)} ms, ${event.attempts} attempt(s), served by ${event.servedModel ?? '-'}${tokens}`;
    }
  }
}

export const whatHappened: Step = {
  title: 'What happened to this call?',
  what: 'One generateText call as core saw it, from the onEvent hook: queue wait, the 429 that ai retried, fallback, tokens.',
  async run(tour) {
    const events: GatewayEvent[] = [];
    const chatCalls: number[] = [];
    let blockerAnswered = () => {};
    const answered = new Promise<void>((resolve) => {
      blockerAnswered = resolve;
    });
    // A provider of its own with the hook (the same events feed @infergate/core/otel's spans), and
    // one slot, so that our call queues behind another one.
    const gateway = createGateway({
      baseURL: tour.client.baseURL,
      apiKey: tour.apiKey,
      fetch: tour.requests.fetch,
      maxConcurrency: 1,
      onEvent(event) {
        events.push(event);
        if (event.type === 'start' && event.operation === 'chat') chatCalls.push(event.callId);
        if (event.type === 'response' && event.ok && event.callId === chatCalls[0]) {
          blockerAnswered();
        }
      },
    });
    // The other call: a stream, which holds the slot until its body has arrived.
    const blocker = streamText({
      model: gateway(tour.modelWith(['chat', 'streaming'])),
      prompt: 'Count from one to twenty, in words.',
    });
    const blockerText = blocker.text;
    await answered;
    // On the emulator: the offline my/laptop-model (answered by a pool model) and one 429 first.
    const modelId = tour.emulator ? 'my/laptop-model' : tour.modelWith(['chat']);
    tour.emulator?.injectFault({ fault: 'rate_limit', endpoint: 'chat', times: 1, retryAfter: 1 });
    const result = await generateText({
      model: gateway(modelId),
      prompt: 'In one sentence: what is a gateway?',
    });
    await blockerText;
    line(`the AI SDK saw one call and its answer: ${style.dim(JSON.stringify(result.text))}`);
    // `ai` owns retries: each attempt of its retry loop is one call of core's, with one request.
    const ours = chatCalls.slice(1);
    const starts = events.filter(
      (event): event is GatewayStartEvent => event.type === 'start' && ours.includes(event.callId),
    );
    expect(starts.length > 0, 'the hook saw the chat call');
    const startedAt = starts[0]!.time;
    const timeline = events.filter((event) => ours.includes(event.callId));
    line(`core saw ${ours.length} call(s) (one per attempt of ai's retry loop):`);
    for (const event of timeline) line(`  ${describe(event, startedAt)}`);
    const dones = timeline.filter((event): event is GatewayDoneEvent => event.type === 'done');
    const done = dones.at(-1);
    expect(done?.ok, 'the last call ended well');
    if (tour.emulator) {
      expect(
        timeline.some((event) => event.type === 'response' && event.status === 429),
        'the 429 was seen',
      );
      expect(
        timeline.some((event) => event.type === 'fallback'),
        'the fallback was reported',
      );
    }
    ok(
      `${Math.round(dones.reduce((sum, call) => sum + call.queueWaitMs, 0))} ms queued, ${dones.length} call(s) by ai, served by ${done.servedModel}`,
    );
  },
};
