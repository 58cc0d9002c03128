import { describe, expect, it } from 'vitest';
import { budgetId, pathScopedId } from './budget-id';

describe('budgetId', () => {
  it('names one budget per normalised origin and key, without holding the key', () => {
    const id = budgetId('http://localhost:8080/v1', 'key-1');
    for (const same of [
      'http://127.0.0.1:8080/v1',
      'http://[::1]:8080',
      'HTTP://LOCALHOST:8080/V1/',
      'http://localhost:8080/api/v1',
    ]) {
      expect(budgetId(same, 'key-1')).toBe(id);
    }
    expect(budgetId('https://GW.example:443/v1', 'k')).toBe(budgetId('https://gw.example', 'k'));
    expect(budgetId('http://localhost:8081/v1', 'key-1')).not.toBe(id);
    expect(budgetId('https://localhost:8080/v1', 'key-1')).not.toBe(id);
    expect(budgetId('http://localhost:8080/v1', 'key-2')).not.toBe(id);
    expect(id).not.toContain('key-1');
    expect(id).not.toContain('localhost');
  });
});

describe('pathScopedId', () => {
  it("narrows a budget id to the base URL's path, without holding the path", () => {
    const id = budgetId('https://gw.example/eu/v1', 'k');
    const eu = pathScopedId(id, 'https://gw.example/eu/v1');
    expect(pathScopedId(id, 'https://gw.example/eu/v1/')).toBe(eu);
    expect(pathScopedId(id, 'https://gw.example/us/v1')).not.toBe(eu);
    expect(
      pathScopedId(budgetId('https://gw.example/eu/v1', 'k2'), 'https://gw.example/eu/v1'),
    ).not.toBe(eu);
    expect(eu.startsWith(id)).toBe(true);
    expect(eu).not.toContain('/eu');
  });
});
