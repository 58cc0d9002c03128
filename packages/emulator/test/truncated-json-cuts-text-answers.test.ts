import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index';
import { call } from './helpers';

// A `truncated_json` rule (times: 1) on transcriptions was used up by a `response_format: 'text'`
// answer it left whole (text/plain), so the JSON answer after it came whole too. A text answer is
// now cut in half as a JSON one is: the rule is spent only on an answer it cut.

const SPEECH = Buffer.concat([
  Buffer.from('RIFF\0\0\0\0WAVE'),
  Buffer.from('SPEECH: hello world'),
]).toString('base64');

function transcribe(emulator: ReturnType<typeof createEmulator>, responseFormat: string) {
  return call(emulator, '/audio/transcriptions', {
    body: { audio_base64: SPEECH, response_format: responseFormat },
  });
}

describe('truncated_json on a text answer', () => {
  it('cuts the text/plain body in half, spending the rule on an answer it cut', async () => {
    const emulator = createEmulator({
      faults: [{ fault: 'truncated_json', endpoint: 'transcriptions', times: 1 }],
    });
    const text = await transcribe(emulator, 'text');
    expect(text.status).toBe(200);
    expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await text.text()).toBe('hello');
    expect(emulator.scenario.faults).toHaveLength(0);
    const json = await transcribe(emulator, 'json');
    expect(JSON.parse(await json.text())).toMatchObject({ text: 'hello world' });
  });
});
