/**
 * For the tests that a request is refused before anything is sent (the catalog read too), by each
 * entry point: the entry points run to their end on an input with call options, and the refusal
 * with every path the model's fetch was asked for.
 */
import { isGatewayError } from '@infergate/core';
import { caught, emulate } from '@infergate/emulator/testing';
import type { BaseLanguageModelInput } from '@langchain/core/language_models/base';
import { GatewayChatModel, type GatewayChatModelCallOptions } from '../src/index';
import { intercepting, recordingGateway } from './helpers';

export type EntryPoint = [string, (model: GatewayChatModel) => Promise<unknown>];

/** invoke, stream and streamEvents (each read to its end) of `input` with `options`. */
export function entryPoints(
  input: BaseLanguageModelInput,
  options: Partial<GatewayChatModelCallOptions> = {},
): EntryPoint[] {
  return [
    ['invoke', (model) => model.invoke(input, options)],
    [
      'stream',
      async (model) => {
        for await (const _ of await model.stream(input, options));
      },
    ],
    [
      'streamEvents',
      async (model) => {
        for await (const _ of model.streamEvents(input, { ...options, version: 'v2' }));
      },
    ],
  ];
}

/** `run` on `community/general` over a fresh emulator: how it was refused, and the paths sent. */
export async function refusedBeforeSending(run: EntryPoint[1]) {
  const gateway = await emulate();
  const sent: string[] = [];
  const connection = intercepting(gateway, async (request) => {
    sent.push(new URL(request.url).pathname);
    return undefined;
  });
  const model = new GatewayChatModel('community/general', connection);
  const refused = await run(model).then(
    () => undefined,
    (error: unknown) => error as { code?: string; field?: string; message: string },
  );
  await gateway.close();
  return { refused, sent };
}

/** `new GatewayChatModel({ model, [key]: 1 })` on a recording gateway: its refusal. */
export async function refusedModelKey(key: string) {
  const { connection } = await recordingGateway();
  return caught(
    () => new GatewayChatModel({ model: 'community/general', ...connection, [key]: 1 }),
    isGatewayError,
  );
}

/** `invoke('hi', { [key]: value })` on a recording gateway: its refusal, and the bodies sent. */
export async function refusedCallKey(key: string, value: unknown = 1) {
  const { bodies, connection } = await recordingGateway();
  const model = new GatewayChatModel('community/general', connection);
  const error = await caught(() => model.invoke('hi', { [key]: value } as never), isGatewayError);
  return { error, bodies };
}

/**
 * `kwargsOf(the gateway's key)` given as a model's `modelKwargs` (`new GatewayChatModel`, then `invoke`) and as a
 * call's (`invoke('hi', { modelKwargs })`) on one recording gateway: each refusal, with the code
 * each place gives, and the bodies sent.
 */
export async function refusedKwargs(kwargsOf: (apiKey: string) => Record<string, unknown>) {
  const { bodies, connection } = await recordingGateway();
  const kwargs = kwargsOf(connection.apiKey);
  const modelSetting = await caught(
    () =>
      new GatewayChatModel({
        ...connection,
        model: 'community/general',
        modelKwargs: kwargs,
      }).invoke('hi'),
    isGatewayError,
  );
  const model = new GatewayChatModel('community/general', connection);
  const callOption = await caught(
    () => model.invoke('hi', { modelKwargs: kwargs }),
    isGatewayError,
  );
  const refusals = [
    [modelSetting, 'configuration_error'],
    [callOption, 'invalid_request_error'],
  ] as const;
  return { refusals, bodies, apiKey: connection.apiKey };
}
