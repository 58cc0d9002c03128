import { z } from 'zod/v4';

/**
 * The client tool the emulator's scripted models call in tool-loop tests ("Use weather for …"),
 * given to either major's `tool()`: `tool(WEATHER_TOOL)` from `ai` or from `ai-v6`.
 */
export const WEATHER_TOOL = {
  description: 'Current weather for a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }: { city: string }) => ({ city, celsius: 21 }),
};
