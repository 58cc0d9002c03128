// docs/gateway-protocol.md §4.1 (extra request fields, reasoning effort), §4.7 (failover and stall
// timeouts), §5.6 (usage asked for in a stream).
import { z } from 'zod/v4';
import { infergateOptionsParser, PROVIDER_OPTIONS_KEY } from '../shared/parse-infergate-options';

/**
 * The settings a chat call may put in `providerOptions.infergate`. They are read, not sent; every
 * other field there is a request field the gateway passes to the model server.
 */
const chatCallSettingsSchema = z.object({
  /** Models to use, in order, when the model cannot serve the call; replaces the model's list. */
  fallbackModels: z.array(z.string().min(1)).optional(),
  /** Longest wait from sending a request to the first byte of its answer, in ms. */
  firstChunkTimeoutMs: z.number().positive().finite().optional(),
  /** Longest silence between two chunks of a stream, in ms. */
  chunkTimeoutMs: z.number().positive().finite().optional(),
  /** This call's `streamUsage` (over the provider's): `false` sends no `stream_options`. */
  streamUsage: z.boolean().optional(),
  /**
   * Sent as `reasoning_effort`, the value as given (over the `reasoning` call option): for values
   * the model server knows and `reasoning` has not (`'max'` sent as `'max'`, …).
   */
  reasoningEffort: z.string().optional(),
});
/** What a chat call's `providerOptions.infergate` may set besides request fields. */
export type GatewayChatOptions = z.infer<typeof chatCallSettingsSchema>;

const CALL_SETTINGS: readonly string[] = Object.keys(chatCallSettingsSchema.shape);

const parseChatCallSettings = infergateOptionsParser(chatCallSettingsSchema, {
  fallbackModels: 'an array of model ids',
  firstChunkTimeoutMs: 'a number of ms > 0',
  chunkTimeoutMs: 'a number of ms > 0',
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
  const settings = parseChatCallSettings(providerOptions) ?? {};
  const extraFields = Object.fromEntries(
    Object.entries(given).filter(([name]) => !CALL_SETTINGS.includes(name)),
  );
  return { settings, extraFields };
}
