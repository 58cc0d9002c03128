import { packageTestConfig } from '../../vitest.shared.ts';

export default packageTestConfig({
  // The shared deadline timer's ref/unref and the request-bound mode are per realm; many-keys
  // keeps 10,000 clients alive, which every `redactKey` of a file sharing its realm would visit.
  isolatedFiles: [
    'src/budget/request-bound-key-budget.test.ts',
    'src/call/call-scope.test.ts',
    'src/client/catalog-request-bound.test.ts',
    'test/many-keys.test.ts',
  ],
});
