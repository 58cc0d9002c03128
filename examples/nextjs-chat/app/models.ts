import { gateway } from '@infergate/ai-sdk';

/** The model a new chat starts with, when the gateway lists it. */
export const PREFERRED_MODEL = process.env.INFERGATE_MODEL ?? 'community/general';

export interface ModelOption {
  id: string;
  label: string;
  /** The chat route streams: a model without streaming is shown, disabled, with the reason. */
  streaming: boolean;
  tools: boolean;
  /** False for a model asked for by name that the catalog does not list (e.g. an offline own model). */
  listed: boolean;
}

/** The chat models this key may use, with the capabilities the picker needs. */
export async function chatModels(): Promise<ModelOption[]> {
  const models = await gateway.models();
  return models
    .filter((model) => model.capabilities.includes('chat'))
    .map((model) => ({
      id: model.id,
      label: model.name ? `${model.id} · ${model.name}` : model.id,
      streaming: model.capabilities.includes('streaming'),
      tools: model.capabilities.includes('tools'),
      listed: true,
    }));
}

/**
 * An offline own model is not listed, yet its address still works: the gateway may answer with a
 * fallback pool model. Asked for by name, it is offered with unknown capabilities (tried as
 * streaming, without tools).
 */
export function unlistedModel(id: string): ModelOption {
  return {
    id,
    label: `${id} · not in the catalog now`,
    streaming: true,
    tools: false,
    listed: false,
  };
}
