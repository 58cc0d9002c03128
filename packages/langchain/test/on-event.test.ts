import { createGatewayClient, type GatewayEvent } from '@infergate/core';
import { pngWithText } from '@infergate/emulator/fixtures';
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import {
  createGatewayTools,
  GatewayChatModel,
  GatewayEmbeddings,
  GatewayOcrLoader,
  GatewayTranslator,
} from '../src/index';

// One rule, as createGateway's: every LangChain class that makes its client takes onEvent and
// recordContent; a shared client's hooks are that client's (giving both is refused).
describe('onEvent and recordContent on the LangChain classes', () => {
  it('GatewayChatModel.create: the hooks reach the client it makes', async () => {
    const { connection } = await emulate();
    const events: GatewayEvent[] = [];
    const model = await GatewayChatModel.create('community/general', {
      ...connection,
      onEvent: (event) => events.push(event),
      recordContent: true,
    });
    await model.invoke('hello there');
    const start = events.find((e) => e.operation === 'chat' && e.type === 'start') as
      | { input?: unknown }
      | undefined;
    expect(JSON.stringify(start?.input)).toContain('hello there');
  });

  it('GatewayChatModel: events of each call, content only with recordContent; never serialised', async () => {
    const { connection } = await emulate();
    const events: GatewayEvent[] = [];
    const model = new GatewayChatModel('community/general', {
      ...connection,
      onEvent: (event) => events.push(event),
      recordContent: true,
    });
    await model.invoke('hello there');
    const chat = events.filter((event) => event.operation === 'chat');
    expect(chat.map((event) => event.type)).toContain('done');
    const start = chat.find((event) => event.type === 'start') as { input?: unknown } | undefined;
    expect(JSON.stringify(start?.input)).toContain('hello there');
    expect(JSON.stringify(model.toJSON())).not.toMatch(/onEvent|recordContent/);

    const quiet: GatewayEvent[] = [];
    await new GatewayChatModel('community/general', {
      ...connection,
      onEvent: (event) => quiet.push(event),
    }).invoke('hello there');
    const quietStart = quiet.find((e) => e.type === 'start') as { input?: unknown } | undefined;
    expect(quietStart).toBeDefined();
    expect(quietStart?.input).toBeUndefined();
  });

  it('GatewayEmbeddings, the translator, the loaders and the tools take them too', async () => {
    const { connection } = await emulate();
    const events: GatewayEvent[] = [];
    const hooks = { ...connection, onEvent: (event: GatewayEvent) => events.push(event) };
    await new GatewayEmbeddings({ ...hooks, model: 'all-minilm-l6-v2' }).embedQuery('hi');
    await new GatewayTranslator({ ...hooks, targetLanguage: 'uk' }).invoke('hello');
    await new GatewayOcrLoader({ ...hooks, image: pngWithText('Привіт') }).load();
    const tools = await createGatewayTools(hooks);
    const translate = tools.find((tool) => tool.name === 'translate') as
      | { invoke(input: { text: string; target_language: string }): Promise<string> }
      | undefined;
    await translate?.invoke({ text: 'hi', target_language: 'de' });
    const done = events.filter((event) => event.type === 'done').map((event) => event.operation);
    expect(done).toEqual(
      expect.arrayContaining(['embeddings', 'translation', 'ocr', 'capabilities']),
    );
    expect(done.filter((operation) => operation === 'translation')).toHaveLength(2);
  });

  it('with a shared client they are refused: the hooks are the client’s', async () => {
    const { connection } = await emulate();
    const client = createGatewayClient(connection);
    expect(() => new GatewayChatModel('community/general', { client, onEvent: () => {} })).toThrow(
      /onEvent was given with a shared client/,
    );
    expect(() => new GatewayEmbeddings({ client, recordContent: true })).toThrow(
      /recordContent was given with a shared client/,
    );
  });
});
