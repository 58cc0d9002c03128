import type { TextStreamPart, ToolSet } from 'ai';

/** What the route attaches to each assistant message, shown under the answer. */
export interface AnswerMetadata {
  requestedModel?: string;
  /** The model that answered (the gateway's `X-Service-Model`), known once a step finishes. */
  servedModel?: string;
  /** True when the gateway answered with another model than the one requested. */
  fallback?: boolean;
}

/**
 * `toUIMessageStreamResponse({ messageMetadata })`: the requested model at the start, the served
 * model (read by @infergate/ai-sdk into `providerMetadata.infergate`) after each step.
 */
export function answerMetadata(
  part: TextStreamPart<ToolSet>,
  requestedModel: string,
): AnswerMetadata | undefined {
  if (part.type === 'start') return { requestedModel };
  if (part.type !== 'finish-step') return undefined;
  const infergate = part.providerMetadata?.infergate;
  const servedModel =
    typeof infergate?.servedModel === 'string' ? infergate.servedModel : part.response.modelId;
  return { requestedModel, servedModel, fallback: servedModel !== requestedModel };
}
