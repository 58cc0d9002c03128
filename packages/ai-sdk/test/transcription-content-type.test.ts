// docs/gateway-protocol.md §2.3: a `Content-Type` in the provider's or the call's headers does not
// replace the multipart type (with its boundary) of `transcribe`'s upload: core's one rule.
import { wavWithSpeech } from '@infergate/emulator/fixtures';
import { experimental_transcribe as transcribe } from 'ai';
import { describe, expect, it } from 'vitest';
import { providersOnMsw } from './providers';

const { gateway } = await providersOnMsw({});

describe('transcribe with a Content-Type header', () => {
  it('sends multipart, which the gateway reads', async () => {
    const provider = gateway({ headers: { 'Content-Type': 'application/json' } });
    const first = await transcribe({
      model: provider.transcriptionModel(),
      audio: wavWithSpeech('still multipart'),
    });
    expect(first.text).toBe('still multipart');
    const second = await transcribe({
      model: gateway().transcriptionModel(),
      audio: wavWithSpeech('the call header too'),
      headers: { 'content-type': 'text/plain' },
    });
    expect(second.text).toBe('the call header too');
  });
});
