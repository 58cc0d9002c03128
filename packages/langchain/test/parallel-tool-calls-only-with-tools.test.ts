// docs/gateway-protocol.md §4.2: `parallel_tool_calls` (ChatOpenAI's call option, or a
// `modelKwargs` field) is sent only with tools: an OpenAI-backed model server refuses it without
// them ("parallel_tool_calls is only allowed when tools are specified"), so a call with no tools
// bound, or an empty list, sends neither (rv-25b F4).
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { recordingGateway, recordingModel } from './helpers';

const weather = {
  type: 'function' as const,
  function: { name: 'weather', description: 'The weather', parameters: { type: 'object' } },
};

const sent = (body: Record<string, unknown>) => Object.keys(body);

describe('parallel_tool_calls without tools is not sent', () => {
  it('invoke with parallel_tool_calls and no tools: the body has no parallel_tool_calls', async () => {
    const { bodies, model } = await recordingModel();
    await model.invoke('hi', { parallel_tool_calls: false });
    expect(sent(bodies[0]!)).not.toContain('parallel_tool_calls');
  });

  it('bindTools([]) with parallel_tool_calls: neither tools nor parallel_tool_calls', async () => {
    const { bodies, model } = await recordingModel();
    await model.bindTools([], { parallel_tool_calls: true }).invoke('hi');
    expect(sent(bodies[0]!)).not.toContain('tools');
    expect(sent(bodies[0]!)).not.toContain('parallel_tool_calls');
  });

  it('modelKwargs parallel_tool_calls on a plain model: not sent, and answered', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/plain', {
      ...connection,
      modelKwargs: { parallel_tool_calls: false },
    });
    expect((await model.invoke('hi')).content).toBe('Echo: hi');
    expect(sent(bodies[0]!)).not.toContain('parallel_tool_calls');
  });

  it('with a tool bound, parallel_tool_calls is sent', async () => {
    const { bodies, model } = await recordingModel();
    await model.bindTools([weather], { parallel_tool_calls: false }).invoke('hi');
    expect(bodies[0]).toMatchObject({ parallel_tool_calls: false });
    expect(bodies[0]!.tools).toHaveLength(1);
  });
});
