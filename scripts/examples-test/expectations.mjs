// What each example must do in its copy, on the emulator. A command-line example runs `npm start`
// with the two variables set (`gateway`: it names that gateway, `Gateway: <url>`), and, when
// `embedded` is given, once more without them (it starts an emulator of its own and says so). Each
// run must exit 0 and print every line of its list, in order. `withoutKey`: the one line it fails
// with when INFERGATE_BASE_URL is set and INFERGATE_API_KEY is not (no stack trace). `readmeSteps`:
// its README's step table and skipped steps are checked against the run (demo-readme.mjs). An
// example not listed here fails the test: say what it prints.

const NO_KEY = 'INFERGATE_BASE_URL is set but INFERGATE_API_KEY is not: set both.';
const EXAMPLE_FAILED_NO_KEY = `The example failed: Error: ${NO_KEY}`;

export const EXPECTATIONS = {
  'ai-sdk-node': {
    withoutKey: EXAMPLE_FAILED_NO_KEY,
    gateway: [
      'Echo: Say hello to a new infergate user.',
      '(answered by community/general,',
      '→ convert_currency({"amount":',
      '(2 steps, finish: stop)',
      'Hello from infergate. Please send the quarterly report by Friday. (en, 0.4 s)',
    ],
    embedded: ['Hello from infergate. Please send the quarterly report by Friday. (en, 0.4 s)'],
  },
  demo: {
    withoutKey: `The tour could not start: Error: ${NO_KEY}`,
    readmeSteps: true,
    // Against a configured gateway the two steps that need the emulator's own controls are skipped.
    gateway: ['mcp ocr: INVOICE 42', 'Summary: 16 passed, 2 skipped, 0 failed'],
    embedded: [
      'served by: pool-a/llama-3-8b',
      'statuses seen by the client: 429 → 200',
      'Summary: 18 passed, 0 skipped, 0 failed',
    ],
  },
  'langchain-agent': {
    withoutKey: EXAMPLE_FAILED_NO_KEY,
    gateway: [
      'Tools: translate, ocr, transcribe, lookup_order',
      '→ lookup_order({"orderId":"A-1042"})',
      'Structured response:',
      '"status": "shipped"',
    ],
    embedded: ['Structured response:'],
  },
  'langchain-chain': {
    withoutKey: EXAMPLE_FAILED_NO_KEY,
    gateway: ['Echo: Explain an inference gateway to a new developer.', 'characters streamed)'],
    embedded: ['Echo: Explain an inference gateway to a new developer.'],
  },
  'langchain-rag': {
    withoutKey: EXAMPLE_FAILED_NO_KEY,
    gateway: [
      'Indexed 6 passages with multilingual-e5-base.',
      '[1] billing.md#',
      'Answer: Echo: When are invoices due, and how can I pay them?',
      'Sources:',
    ],
    embedded: ['Answer: Echo: When are invoices due, and how can I pay them?'],
  },
  // It starts its emulator and a throwaway redis-server itself (REDIS_URL unset).
  'multi-process': {
    own: ['30 chat calls from 3 processes; max in flight on the key: ', 'gateway 429s: 0'],
  },
  // Built and started as in production; see checkNextApp in check-example.mjs.
  'nextjs-chat': { next: true },
};
