// docs/gateway-protocol.md §4.1 (extra request fields, reasoning effort), §4.7 (a call's steering,
// checked by core), §5.6 (usage asked for in a stream).
import type { SteeringOptions } from '@infergate/core';
import { z } from 'zod/v4';
import { infergateOptionsParser, PROVIDER_OPTIONS_KEY } from '../shared/parse-infergate-options';

/**
 * The settings a chat call may put in `providerOptions.infergate`. They are read, not sent; every
 * other field there is a request field the gateway passes to the model server.
 */
const chatCallSettingsSchema = z.object({
  // The steering options are core's: passed on as given, and checked by core's one reader (the
  // same refusal as from core, LangChain or MCP: `invalid_request_error`, as InvalidArgumentError).
  fallbackModels: z.unknown().optional(),
  firstChunkTimeoutMs: z.unknown().optional(),
  chunkTimeoutMs: z.unknown().optional(),
  hedge: z.unknown().optional(),
  /** This call's `streamUsage` (over the provider's): `false` sends no `stream_options`. */
  streamUsage: z.boolean().optional(),
  /**
   * Sent as `reasoning_effort`, the value as given (over the `reasoning` call option): for values
   * the model server knows and `reasoning` has not (`'max'` sent as `'max'`, …).
   */
  reasoningEffort: z.string().optional(),
});
/**
 * What a chat call's `providerOptions.infergate` may set besides request fields: core's steering
 * options (`fallbackModels`, `firstChunkTimeoutMs`, `chunkTimeoutMs`, `hedge`; each over the
 * model's setting, `fallbackModels: []` and `hedge: false` turning the model's off), `streamUsage`
 * and `reasoningEffort`.
 */
export type GatewayChatOptions = {
  fallbackModels?: string[] | undefined;
  firstChunkTimeoutMs?: number | undefined;
  chunkTimeoutMs?: number | undefined;
  hedge?: { afterMs: number | 'auto'; maxExtra?: number | undefined } | false | undefined;
  streamUsage?: boolean | undefined;
  reasoningEffort?: string | undefined;
};

// Core's options, in the shape ai's `providerOptions` (JSON values) takes.
true satisfies GatewayChatOptions extends SteeringOptions ? true : false;

const CALL_SETTINGS: readonly string[] = Object.keys(chatCallSettingsSchema.shape);

const parseChatCallSettings = infergateOptionsParser(chatCallSettingsSchema, {
  fallbackModels: 'an array of model ids',
  firstChunkTimeoutMs: 'a number of ms > 0',
  chunkTimeoutMs: 'a number of ms > 0',
  hedge: "{ afterMs: ms > 0 or 'auto', maxExtra? } or false",
  streamUsage: 'true or false',
  reasoningEffort: 'a string such as "low", "medium" or "high"',
});

/** A chat call's `providerOptions.infergate`, split into its settings and its request fields. */
export function readChatProviderOptions(providerOptions: Record<string, unknown> | undefined): {
  settings: GatewayChatOptions;
  extraFields: Record<string, unknown> | undefined;
} {
  const given = providerOptions?.[PROVIDER_OPTIONS_KEY];
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    return { settings: {}, extraFields: undefined };
  }
  const settings = (parseChatCallSettings(providerOptions) ?? {}) as GatewayChatOptions;
  const extraFields = Object.fromEntries(
    Object.entries(given).filter(([name]) => !CALL_SETTINGS.includes(name)),
  );
  return { settings, extraFields };
}
