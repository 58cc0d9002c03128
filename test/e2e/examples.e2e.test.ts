import { readFileSync } from 'node:fs';
import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { examplesDir, type RunResult, runExample, runNode } from '../helpers/run';

// Every command-line example, run as a user runs it (`node src/index.ts`), against the
// emulator's real HTTP server named by INFERGATE_BASE_URL / INFERGATE_API_KEY.
let gateway: EmulatedGateway;

beforeAll(async () => {
  gateway = await emulate({ as: 'http' });
});
afterAll(async () => {
  await gateway?.close();
});
beforeEach(() => {
  gateway.emulator.resetCounters();
  gateway.emulator.clearFaults();
});

function expectSuccess(result: RunResult): void {
  expect(result.code, result.output).toBe(0);
  expect(result.stdout).toContain(`Gateway: ${gateway.baseURL}`);
  expect(result.output).not.toContain('The example failed');
}

describe('examples/langchain-chain', () => {
  it('streams the chain’s answer to the terminal', async () => {
    const result = await runExample('langchain-chain', gateway);
    expectSuccess(result);
    expect(result.stdout).toContain('Echo: Explain an inference gateway to a new developer.');
    expect(result.stdout).toMatch(/\(\d+ characters streamed\)/);
    expect(gateway.emulator.counters.requests.chat).toBe(1);
  });

  it('runs on its own embedded emulator when INFERGATE_BASE_URL is unset', async () => {
    const result = await runExample('langchain-chain');
    expect(result.code, result.output).toBe(0);
    expect(result.stdout).toMatch(
      /Gateway: the embedded emulator at http:\/\/127\.0\.0\.1:\d+\/v1/,
    );
    expect(result.stdout).toContain('Echo: Explain an inference gateway');
    // The stand-in answers are explained before they are printed.
    expect(result.stdout).toContain(
      '(the emulator answers with deterministic stand-ins; set INFERGATE_BASE_URL and INFERGATE_API_KEY to your gateway for real answers)',
    );
    expect(gateway.emulator.counters.requests.chat).toBe(0);
  });

  it('reports a typed error and exits 1 when the gateway refuses the key', async () => {
    const result = await runExample('langchain-chain', {
      baseURL: gateway.baseURL,
      apiKey: 'wrong-key',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('The example failed: GatewayError [invalid_api_key]');
    expect(result.output).not.toContain('wrong-key');
  });
});

describe('examples/langchain-agent', () => {
  let result: RunResult;
  beforeAll(async () => {
    result = await runExample('langchain-agent', gateway);
  });

  it('gives the agent the gateway tools and the custom tool, and the model calls it', () => {
    expect(result.stdout).toContain('Tools: translate, ocr, transcribe, lookup_order');
    expect(result.stdout).toContain('→ lookup_order({"orderId":"A-1042"})');
    expect(result.stdout).toContain('← lookup_order: {"orderId":"A-1042","status":"shipped"');
    // Each agent step is printed once (the structured-response step repeats the history).
    expect(result.stdout.split('→ lookup_order(').length - 1).toBe(1);
    expect(result.stdout.split('← lookup_order:').length - 1).toBe(1);
    expect(result.stdout.split('\nUser: ').length - 1).toBe(1);
    expect(result.stdout.split('\nAI: ').length - 1).toBe(1);
  });

  it('ends with the zod responseFormat object', () => {
    expectSuccess(result);
    expect(result.stdout).toContain('Structured response:');
    expect(result.stdout).toContain('"orderId": "A-1042"');
    expect(result.stdout).toContain('"status": "shipped"');
  });

  it('ends with the structured response on a tools-only model too (the tool strategy)', async () => {
    // community/tools has no json_schema: createAgent asks through its structured-output tool,
    // which the scripted model calls after the order tool's result (a forced tool_choice).
    const result = await runNode(
      examplesDir('langchain-agent'),
      ['--experimental-strip-types', 'src/index.ts'],
      {
        INFERGATE_BASE_URL: gateway.baseURL,
        INFERGATE_API_KEY: gateway.apiKey,
        INFERGATE_MODEL: 'community/tools',
      },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Structured response:');
    expect(result.output).not.toContain('ZodError');
  });
});

describe('examples/langchain-rag', () => {
  it('indexes the corpus, retrieves with a query embedding and cites the passages', async () => {
    const result = await runExample('langchain-rag', gateway);
    expectSuccess(result);
    expect(result.stdout).toContain('Indexed 6 passages with multilingual-e5-base.');
    // The billing passages share the question's words: they rank first.
    expect(result.stdout).toMatch(/\[1\] billing\.md#\d/);
    expect(result.stdout).toContain('Answer: Echo: When are invoices due, and how can I pay them?');
    expect(result.stdout).toMatch(/Sources:\n {2}\[1\] billing\.md: /);
    expect(gateway.emulator.counters.requests.embeddings).toBe(2); // documents, then the query
    expect(gateway.emulator.counters.requests.chat).toBe(1);
  });

  // The README's commands, as written there: each question retrieves the file that answers it.
  const readmeQuestions = readFileSync(`${examplesDir('langchain-rag')}/README.md`, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('pnpm --filter @infergate/example-langchain-rag start'))
    .map((line) => /start "([^"]+)"/.exec(line)?.[1]);
  const expectedSource: Record<string, string> = {
    'Within how many days is a refund paid?': 'refunds.md',
  };

  it('the README has the default question and the refunds question', () => {
    expect(readmeQuestions).toEqual([undefined, 'Within how many days is a refund paid?']);
  });

  it.each(readmeQuestions.filter((question): question is string => question !== undefined))(
    'the README’s question %j retrieves its source first',
    async (question) => {
      const result = await runExample('langchain-rag', gateway, [question]);
      expectSuccess(result);
      const source = expectedSource[question];
      expect(source, `no expected source for ${question}`).toBeDefined();
      expect(result.stdout).toContain(`[1] ${source}#`);
      expect(result.stdout).toContain(`Sources:\n  [1] ${source}: `);
      expect(result.stdout).toContain(`Answer: Echo: ${question}`);
    },
  );
});

describe('examples/ai-sdk-node', () => {
  it('runs generateText, streamText with tools, Output.object, embedMany and transcribe', async () => {
    const result = await runExample('ai-sdk-node', gateway);
    expectSuccess(result);
    const out = result.stdout;
    expect(out).toContain('Echo: Say hello to a new infergate user.');
    expect(out).toContain('(answered by community/general,');
    expect(out).toMatch(/→ convert_currency\(\{"amount":/);
    // Each tool call and result printed once.
    expect(out.split('→ convert_currency(').length - 1).toBe(1);
    expect(out.split('← {').length - 1).toBe(1);
    expect(out).toContain('Tool convert_currency returned:');
    expect(out).toContain('(2 steps, finish: stop)');
    expect(out).toMatch(/city: '.+',\s+country: '.+',\s+sights: \[/);
    expect(out).toMatch(/\d\.\d{3} {2}.*Lviv train/);
    expect(out).toContain(
      'Hello from infergate. Please send the quarterly report by Friday. (en, 0.4 s)',
    );
    expect(gateway.emulator.counters.requests.transcriptions).toBe(1);
  });
});
