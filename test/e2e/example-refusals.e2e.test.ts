import { createGateway } from '@infergate/ai-sdk';
import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { streamText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeError } from '../../examples/nextjs-chat/app/api/chat/describe-error';
import { examplesDir, runNode } from '../helpers/run';

// What the examples print when the reader's configuration or the gateway refuses: never a secret
// from the base URL, and a reason with the gateway's code.
let gateway: EmulatedGateway;

beforeAll(async () => {
  gateway = await emulate({ as: 'http' });
});
afterAll(async () => {
  await gateway?.close();
});

const runEntry = (name: string, entry: string, env: Record<string, string>) =>
  runNode(examplesDir(name), ['--experimental-strip-types', entry], env, 90_000);

describe('a base URL with credentials and a query', () => {
  it.each([
    ['ai-sdk-node', 'src/index.ts'],
    ['langchain-agent', 'src/index.ts'],
    ['langchain-chain', 'src/index.ts'],
    ['langchain-rag', 'src/index.ts'],
    ['demo', 'src/index.ts'],
  ])('examples/%s names the gateway without them, then fails', async (name, entry) => {
    const url = new URL(gateway.baseURL);
    const secretURL = `${url.protocol}//reader:PASSWORD123@${url.host}${url.pathname}?token=SECRET456`;
    const result = await runEntry(name, entry, {
      INFERGATE_BASE_URL: secretURL,
      INFERGATE_API_KEY: gateway.apiKey,
    });
    expect(result.code, result.output).toBe(1);
    expect(result.stdout).toContain(`Gateway: ${url.protocol}//${url.host}${url.pathname}\n`);
    expect(result.output).not.toContain('PASSWORD123');
    expect(result.output).not.toContain('SECRET456');
  });

  it.each([
    'reader:PASSWORD123', // parses: scheme `reader:`, path `PASSWORD123`
    'PASSWORD123 at the gateway', // does not parse
  ])('a base URL that is no http(s) URL (%j) is not echoed', async (configured) => {
    const result = await runEntry('langchain-chain', 'src/index.ts', {
      INFERGATE_BASE_URL: configured,
      INFERGATE_API_KEY: gateway.apiKey,
    });
    expect(result.code, result.output).toBe(1);
    expect(result.stdout).toContain('Gateway: (INFERGATE_BASE_URL is not an http(s) URL)\n');
    expect(result.output).not.toContain('PASSWORD123');
  });
});

describe('examples/langchain-rag with INFERGATE_EMBEDDING_ENGINE', () => {
  it('fails naming the engines on offer when it names none of them, and embeds nothing', async () => {
    gateway.emulator.resetCounters();
    const result = await runEntry('langchain-rag', 'src/index.ts', {
      INFERGATE_BASE_URL: gateway.baseURL,
      INFERGATE_API_KEY: gateway.apiKey,
      INFERGATE_EMBEDDING_ENGINE: 'all-minilm-l6-v3',
    });
    expect(result.code, result.output).toBe(1);
    expect(result.stderr).toMatch(
      /The example failed: Error: INFERGATE_EMBEDDING_ENGINE=all-minilm-l6-v3 is not an engine this gateway offers \([^)]*multilingual-e5-base[^)]*\)/,
    );
    expect(result.stdout).not.toContain('Indexed');
    expect(gateway.emulator.counters.requests.embeddings).toBe(0);
  });
});

describe('examples/nextjs-chat describeError (what the browser and the server log get)', () => {
  /** The route's onError text for a streamText call on `model`. */
  async function errorTextFor(model: string): Promise<string> {
    const provider = createGateway({ baseURL: gateway.baseURL, apiKey: gateway.apiKey });
    const texts: string[] = [];
    const result = streamText({
      model: provider(model),
      prompt: 'hello',
      onError: ({ error }) => {
        texts.push(describeError(error));
      },
    });
    for await (const _part of result.fullStream) {
      // drained: the error arrives as a part and through onError
    }
    expect(texts).toHaveLength(1);
    return texts[0] ?? '';
  }

  it('prefixes the AI SDK’s own refusals with the gateway’s code from their cause', async () => {
    expect(await errorTextFor('community/plain')).toMatch(/^unsupported_model_capability: Model /);
    expect(await errorTextFor('nope/x')).toMatch(/^model_not_found: Model "nope\/x"/);
  });
});
