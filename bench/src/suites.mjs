/**
 * Every suite the page reports, in its order. `load` imports the suite when it runs (so that
 * `--only B8` needs neither the adapters' builds nor the anchors); a suite without `load` is
 * planned: the page shows it as "not measured yet" until its file stores a result.
 * `needs: 'redis-server'`: skipped (its stored result kept) when the server is not installed.
 */
export const SUITES = [
  {
    id: 'B1',
    title: 'non-streaming chat: the client cost of one call',
    load: () => import('./b1-chat-overhead.mjs').then((m) => m.runB1),
  },
  {
    id: 'B2',
    title: 'streaming: chunks per second of one long stream',
    load: () => import('./b2-streaming.mjs').then((m) => m.runB2),
  },
  {
    id: 'B3',
    title: 'one key under load: 50 callers, a key capped at 4, real HTTP',
    load: () => import('./b3-key-under-load.mjs').then((m) => m.runB3),
  },
  {
    id: 'B4',
    title: 'bulk embeddings: 10 000 texts through each client',
    load: () => import('./b4-bulk-embeddings.mjs').then((m) => m.runB4),
  },
  {
    id: 'B5',
    title: 'bundle size and cold start',
    load: () => import('./b5-size-startup.mjs').then((m) => m.runB5),
  },
  {
    id: 'B6',
    title: 'memory over one 100 MB stream',
    load: () => import('./b6-memory.mjs').then((m) => m.runB6),
  },
  {
    id: 'B7',
    title: 'one key shared by 4 processes: in-process budgets vs the Redis budget',
    needs: 'redis-server',
    load: () => import('./b7-redis-budget.mjs').then((m) => m.runB7),
  },
  {
    id: 'B8',
    title: 'a fleet on one key: 32 processes through one Redis',
    needs: 'redis-server',
    load: () => import('./b8-fleet.mjs').then((m) => m.runB8),
  },
  {
    id: 'B8s',
    title: 'serverless churn: 500 short-lived processes on one key',
    needs: 'redis-server',
    load: () => import('./b8s-serverless.mjs').then((m) => m.runB8s),
  },
  {
    id: 'B9',
    title: 'steering around an offline and stalling model',
    load: () => import('./b9-steering.mjs').then((m) => m.runB9),
  },
  {
    id: 'B10',
    title: 'hedged first chunks on a heavy-tailed pool',
    load: () => import('./b10-hedging.mjs').then((m) => m.runB10),
  },
  {
    id: 'B11',
    title: 'structured output over a list of models that serve a schema differently',
    load: () => import('./b11-structured.mjs').then((m) => m.runB11),
  },
];

/** The suite of an id, whatever its case (`b8s`, `B8S`). */
export function findSuite(id) {
  return SUITES.find((suite) => suite.id.toLowerCase() === String(id).trim().toLowerCase());
}
