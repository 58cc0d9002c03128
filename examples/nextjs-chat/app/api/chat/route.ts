import { gateway } from '@infergate/ai-sdk';
import {
  APICallError,
  convertToModelMessages,
  stepCountIs,
  streamText,
  tool,
  type UIMessage,
} from 'ai';
import { z } from 'zod';
import { PREFERRED_MODEL } from '../../models';

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
  const result = streamText({
    model: gateway(model || PREFERRED_MODEL),
    system: 'You are a helpful assistant. Use get_weather for weather questions.',
    messages: await convertToModelMessages(messages),
    // Only send tools to a model that has the tools capability (or the call is refused).
    tools: useTools === false ? undefined : tools,
    stopWhen: stepCountIs(3),
    abortSignal: request.signal,
  });
  return result.toUIMessageStreamResponse({
    // A reasoning model's thinking reaches the page, which shows it collapsed above the answer.
    sendReasoning: true,
    // By default the browser only learns "An error occurred."; the gateway's errors are safe to
    // show (they never contain the API key) and tell the user what went wrong.
    onError: describeError,
  });
}

/** The gateway's error code (when there is one) and message, e.g. `model_busy: …`. */
function describeError(error: unknown): string {
  if (APICallError.isInstance(error)) {
    const code = (error.data as { code?: unknown } | undefined)?.code;
    return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
