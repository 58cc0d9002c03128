import { describe, expect, it } from 'vitest';
import { redactOwnKey } from '../errors/errors';
import { registerSecret } from '../errors/redact-secret';
import { invalidStructuredOutput } from './invalid-structured-output';

describe('invalidStructuredOutput', () => {
  const issues = [
    { message: 'must be a number', path: '/lat' },
    { message: 'is required', path: '/lon' },
    { message: 'must be one of town, village', path: '/kind' },
    { message: 'the whole answer is off' },
  ];

  it('names the model, the method and the first three issues, and keeps every issue', () => {
    const error = invalidStructuredOutput('vendor/m', {
      method: 'json_object',
      text: '{}',
      issues,
      reason: 'schema',
    });
    expect(error.code).toBe('invalid_structured_output');
    expect(error.isRetryable).toBe(false);
    expect(error.message).toBe(
      'vendor/m answered structured output (method json_object) that fails its check: /lat: must be a number; /lon: is required; /kind: must be one of town, village; and 1 more',
    );
    expect(error.invalidOutput).toEqual({
      method: 'json_object',
      text: '{}',
      issues,
      reason: 'schema',
    });
  });

  it('redacts the key from the kept text and issues, and cuts a long text in toJSON', () => {
    const key = 'sk-structured-0123456789abcdef';
    const owner = {};
    registerSecret(key, owner);
    const text = `{"note":"${key}","pad":"${'x'.repeat(3000)}"}`;
    const error = invalidStructuredOutput('m', {
      method: 'tools',
      text,
      issues: [{ message: `unexpected ${key}`, path: '/note' }],
      reason: 'schema',
    });
    redactOwnKey(error, owner);
    expect(JSON.stringify(error.invalidOutput)).not.toContain(key);
    const json = error.toJSON() as { invalidOutput: { text: string; method: string } };
    expect(json.invalidOutput.method).toBe('tools');
    expect(json.invalidOutput.text).toHaveLength(2001);
    expect(json.invalidOutput.text.endsWith('…')).toBe(true);
  });
});
