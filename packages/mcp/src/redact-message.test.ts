import { createGatewayClient } from '@infergate/core';
import { describe, expect, it } from 'vitest';
import { redactMessage, redactUrlCredentials } from './redact-message';

describe('redactUrlCredentials', () => {
  it('replaces the user information of any URL, and nothing else', () => {
    expect(
      [
        'redis://:hunter2@cache:6379/0',
        'rediss://default:p%40ss@cache.example:6380',
        'https://token@git.example/repo?x=1',
        'redis://:p@ss@cache:6379',
        '"redis:\\/\\/user:pw@cache:6379"',
        'at http://example.test/a@b and mail me@example.test',
        'two: redis://a:b@one:1, http://c:d@two/',
      ].map(redactUrlCredentials),
    ).toEqual([
      'redis://***@cache:6379/0',
      'rediss://***@cache.example:6380',
      'https://***@git.example/repo?x=1',
      'redis://***@cache:6379',
      '"redis:\\/\\/***@cache:6379"',
      'at http://example.test/a@b and mail me@example.test',
      'two: redis://***@one:1, http://***@two/',
    ]);
  });

  it('replaces user information in URL-like text without a well-formed scheme', () => {
    expect(
      [
        'The Redis URL redis//:hunter2pw@cache:6379 cannot be used',
        'at //user:pass@host/x',
        'redis:/user:pw@cache',
        'redis:user:pw@cache:6379',
        ':hunter2pw@cache:6379',
        '"url":"admin:s3cret@db"',
        'redis//:p@ss@cache',
      ].map(redactUrlCredentials),
    ).toEqual([
      'The Redis URL redis//***@cache:6379 cannot be used',
      'at //***@host/x',
      'redis:/***@cache',
      '***@cache:6379',
      '***@cache:6379',
      '"url":"***@db"',
      'redis//***@cache',
    ]);
  });

  it('leaves ordinary messages as they are', () => {
    const messages = [
      'connect ECONNREFUSED 127.0.0.1:6379',
      'mail me@example.test or ssh git@github.com:22 at 10:30',
      'Error: model_not_found: community/x@2 is not listed',
      'see http://example.test/a@b, user@host:22 and "a@b:c"',
    ];
    expect(messages.map(redactUrlCredentials)).toEqual(messages);
  });
});

describe('redactMessage', () => {
  it('replaces the secrets given, and URL credentials', () => {
    expect(
      redactMessage('key ig-given-secret-1 at redis://:pw@cache:6379', ['ig-given-secret-1']),
    ).toBe('key [redacted] at redis://***@cache:6379');
  });

  it('replaces a live client’s key in the forms core knows (here URL-encoded)', () => {
    const key = 'ig-live/key+9876';
    const client = createGatewayClient({ baseURL: 'http://127.0.0.1:9/v1', apiKey: key });
    expect(redactMessage(`GET /v1?k=${encodeURIComponent(key)} and ${key}`)).toBe(
      'GET /v1?k=[redacted] and [redacted]',
    );
    // The client lives (its key registered) until here.
    expect(client.budget.active).toBe(0);
  });
});
