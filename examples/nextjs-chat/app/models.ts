import { gateway } from '@infergate/ai-sdk';

/** The model a new chat starts with, when the gateway lists it. */
export const PREFERRED_MODEL = process.env.INFERGATE_MODEL ?? 'community/general';

export interface ModelOption {
  id: string;
  label: string;
  tools: boolean;
}

/** The chat models this key may use that can stream (the chat route streams). */
export async function streamingModels(): Promise<ModelOption[]> {
  const models = await gateway.models();
  return models
    .filter((model) => model.capabilities.includes('streaming'))
    .map((model) => ({
      id: model.id,
      label: model.name ? `${model.id} · ${model.name}` : model.id,
      tools: model.capabilities.includes('tools'),
    }));
}
