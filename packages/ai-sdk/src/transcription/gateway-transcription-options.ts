// docs/gateway-protocol.md §9 (the transcription request's `language` and `translate`).
import { z } from 'zod/v4';
import { strictInfergateOptionsParser } from '../shared/strict-infergate-options';

/** `providerOptions.infergate` of `transcribe`. */
const gatewayTranscriptionOptionsSchema = z.object({
  /** Spoken language code; detected when omitted. */
  language: z.string().min(1).optional(),
  /** `true` returns the speech translated into English. */
  translate: z.boolean().optional(),
});
export type GatewayTranscriptionOptions = z.infer<typeof gatewayTranscriptionOptionsSchema>;

/** `providerOptions.infergate` of a transcription call, checked (a wrong value names the field, an unknown key the closest one). */
export const parseGatewayTranscriptionOptions = strictInfergateOptionsParser(
  gatewayTranscriptionOptionsSchema,
  {
    language: 'a non-empty language code such as "en" or "uk"',
    translate: 'a boolean (true: the transcript in English)',
  },
);
