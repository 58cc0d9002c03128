// A call its caller aborts is an abort to LangChain's and LangGraph's retry loops, as ChatOpenAI's is.
import { isGatewayError } from '@infergate/core';
import { caught, emulate } from '@infergate/emulator/testing';
import { getRetryable } from '@langchain/core/errors';
import { Annotation, StateGraph } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';

const State = Annotation.Root({ answer: Annotation<string>() });

describe("a caller's abort", () => {
  it("is not retried by LangGraph's default node retry policy: the node runs once", async () => {
    const gateway = await emulate();
    gateway.hold();
    const model = new GatewayChatModel('community/general', gateway.connection);
    const stop = new AbortController();
    let runs = 0;
    const graph = new StateGraph(State)
      .addNode(
        'ask',
        async () => {
          runs += 1;
          // The node's own signal (a per-call cancel), not the graph's: the graph goes on.
          const answer = await model.invoke('hi', { signal: stop.signal });
          return { answer: answer.text };
        },
        // LangGraph's default `retryOn`; no waiting between attempts.
        { retryPolicy: { initialInterval: 0, jitter: false, logWarning: false } },
      )
      .addEdge('__start__', 'ask')
      .compile();
    const pending = caught(graph.invoke({}));
    await gateway.untilRequests(1);
    stop.abort();
    const error = await pending;
    expect(runs).toBe(1);
    expect(gateway.counters.requests.chat).toBe(1);
    expect(isGatewayError(error) && error.code).toBe('aborted');
    expect((error as Error).name).toBe('AbortError');
  });

  it("is marked not retryable (modelRetryMiddleware's default), answered whole or streamed", async () => {
    const gateway = await emulate();
    gateway.hold();
    const whole = new GatewayChatModel('community/general', gateway.connection);
    const streamed = new GatewayChatModel('community/general', {
      ...gateway.connection,
      streaming: true,
    });
    const stop = new AbortController();
    // (`.stream()` itself rejects with the signal's own AbortError: LangChain races its iterator.)
    const pending = [whole, streamed].map((model) =>
      caught(model.invoke('hi', { signal: stop.signal })),
    );
    await gateway.untilRequests(2);
    stop.abort();
    for (const error of await Promise.all(pending)) {
      expect(isGatewayError(error) && error.code).toBe('aborted');
      expect((error as Error).name).toBe('AbortError');
      expect(getRetryable(error)).toBe(false);
    }
  });

  it('leaves a deadline retryable, as LangGraph retries its own node timeouts', async () => {
    const gateway = await emulate();
    gateway.hold();
    const model = new GatewayChatModel('community/general', {
      ...gateway.connection,
      maxRetries: 0,
    });
    const deadline = new AbortController();
    const pending = caught(model.invoke('hi', { signal: deadline.signal }));
    await gateway.untilRequests(1);
    deadline.abort(new DOMException('late', 'TimeoutError'));
    const error = await pending;
    expect(isGatewayError(error) && error.code).toBe('timeout');
    expect((error as Error).name).toBe('GatewayError');
    expect(getRetryable(error)).toBe(true);
  });
});
