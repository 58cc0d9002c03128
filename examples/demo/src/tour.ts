import { createGateway, type GatewayProvider } from '@infergate/ai-sdk';
import {
  createGatewayClient,
  type GatewayClient,
  type GatewayModel,
  type ModelCapability,
} from '@infergate/core';
import type { Emulator } from '@infergate/emulator';
import type { GatewayConnection } from './connect-gateway.ts';
import { createRequestLog, type RequestLog } from './request-log.ts';

/** What every step gets: one gateway client shared by LangChain, one AI SDK provider. */
export interface Tour {
  /** The embedded emulator, or undefined against a real gateway. */
  emulator?: Emulator;
  apiKey: string;
  /** Core client (LangChain classes are given it, so they share its catalog cache). */
  client: GatewayClient;
  /** AI SDK provider on the same gateway and key. */
  gateway: GatewayProvider;
  /** Everything this process sent. */
  requests: RequestLog;
  catalog: GatewayModel[];
  /** The first listed model with every capability in `needs`; the step is skipped when none has. */
  modelWith(needs: ModelCapability[]): string;
  /** The first listed model that lacks `capability`. */
  modelWithout(capability: ModelCapability): string;
}

/** Thrown by a step that cannot run here; the tour reports it and carries on. */
export class StepSkipped extends Error {}

export interface Step {
  title: string;
  /** One sentence: what the step shows. */
  what: string;
  /** Set when the step needs the emulator's fixtures or fault injection: why it is skipped elsewhere. */
  emulatorOnly?: string;
  run(tour: Tour): Promise<void>;
}

export async function createTour(connection: GatewayConnection): Promise<Tour> {
  const requests = createRequestLog();
  const settings = {
    baseURL: connection.baseURL,
    apiKey: connection.apiKey,
    fetch: requests.fetch,
  };
  const client = createGatewayClient(settings);
  const gateway = createGateway(settings);
  const catalog = await client.models();
  const has = (model: GatewayModel, needs: ModelCapability[]) =>
    needs.every((need) => model.capabilities.includes(need));
  return {
    emulator: connection.emulator,
    apiKey: connection.apiKey,
    client,
    gateway,
    requests,
    catalog,
    modelWith(needs) {
      const preferred = process.env.INFERGATE_MODEL;
      const found =
        catalog.find((model) => model.id === preferred && has(model, needs)) ??
        catalog.find((model) => has(model, needs));
      if (!found) throw new StepSkipped(`no listed model has ${needs.join(' + ')}`);
      return found.id;
    },
    modelWithout(capability) {
      const found = catalog.find((model) => !model.capabilities.includes(capability));
      if (!found) throw new StepSkipped(`every listed model has ${capability}`);
      return found.id;
    },
  };
}

/** Fails the step with `message` unless `condition` holds. */
export function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`check failed: ${message}`);
}
