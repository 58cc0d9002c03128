import { gateway } from '@infergate/ai-sdk';
import {
  convertToModelMessages,
  createUIMessageStreamResponse,
  stepCountIs,
  streamText,
  tool,
  toUIMessageStream,
  type UIMessage,
} from 'ai';
import { z } from 'zod';
import { answerMetadata } from '../../message-metadata';
import { PREFERRED_MODEL } from '../../models';
import { describeError, logFailedAnswer } from './describe-error';

// The gateway lets one request run for up to 5 minutes.
export const maxDuration = 300;

const tools = {
  get_weather: tool({
    description: 'The current weather in a city',
    inputSchema: z.object({ city: z.string().describe('City name') }),
    execute: async ({ city }) => ({ city, celsius: 12 + (city.length % 10), sky: 'clear' }),
  }),
};

export async function POST(request: Request): Promise<Response> {
  const { messages, model, useTools } = (await request.json()) as {
    messages: UIMessage[];
    model?: string;
    useTools?: boolean;
  };
  const requestedModel = model || PREFERRED_MODEL;
  const offeredTools = useTools === false ? undefined : tools;
  const result = streamText({
    model: gateway(requestedModel),
    instructions: 'You are a helpful assistant. Use get_weather for weather questions.',
    messages: await convertToModelMessages(messages),
    // Only send tools to a model that has the tools capability (or the call is refused).
    tools: offeredTools,
    stopWhen: stepCountIs(3),
    abortSignal: request.signal,
    onError: ({ error }) => logFailedAnswer(requestedModel, error),
  });
  const stream = toUIMessageStream({
    stream: result.stream,
    tools: offeredTools,
    // A reasoning model's thinking reaches the page, which shows it collapsed above the answer.
    sendReasoning: true,
    // The requested and the served model, so the page can mark a fallback answer.
    messageMetadata: ({ part }) => answerMetadata(part, requestedModel),
    // By default the browser only learns "An error occurred."; the gateway's errors are safe to
    // show (they never contain the API key) and tell the user what went wrong.
    onError: describeError,
  });
  return createUIMessageStreamResponse({ stream });
}
