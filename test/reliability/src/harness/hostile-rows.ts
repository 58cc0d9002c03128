import { inspect } from 'node:util';
import { it } from 'vitest';
import { writeResult } from './results';

/** One hostile case: what was reported, what must hold, and what happened here. */
export interface HostileRow {
  id: string;
  area: string;
  case: string;
  expect: string;
  /** What happened before the fix (as the case was reported). */
  before: string;
  status?: 'pass' | 'fail' | 'todo';
  detail?: string;
}

export function hostileSuite(file: string) {
  const rows: HostileRow[] = [];
  return {
    rows,
    /** A test that records its outcome as a row of the report. */
    row(spec: Omit<HostileRow, 'status' | 'detail'>, run: () => Promise<void>, timeout?: number) {
      const entry: HostileRow = { ...spec };
      rows.push(entry);
      it(
        `${spec.id}: ${spec.case} → ${spec.expect}`,
        async () => {
          try {
            await run();
            entry.status = 'pass';
          } catch (error) {
            entry.status = 'fail';
            entry.detail = error instanceof Error ? error.message.slice(0, 300) : String(error);
            throw error;
          }
        },
        timeout,
      );
    },
    /** A case that cannot pass yet (its fix belongs to another branch): reported as todo. */
    todo(spec: Omit<HostileRow, 'status' | 'detail'>, why: string) {
      rows.push({ ...spec, status: 'todo', detail: why });
      it.todo(`${spec.id}: ${spec.case} → ${spec.expect} (${why})`);
    },
    write() {
      writeResult(file, { rows });
    },
  };
}

/** The forms in which an echo of `key` may come back: raw, JSON-escaped, URL-encoded, base64. */
export function keyForms(key: string): Record<string, string> {
  return {
    raw: key,
    'JSON \\/': key.replace(/\//g, '\\/'),
    'JSON \\u002b': key.replace(/\+/g, '\\u002b'),
    'URL-encoded': encodeURIComponent(key),
    base64: Buffer.from(key).toString('base64'),
  };
}

/** Every text a user might log of a value: message, stack, String, JSON, util.inspect (all options). */
export function views(value: unknown): string[] {
  const texts: string[] = [];
  const add = (fn: () => unknown) => {
    try {
      const text = fn();
      if (typeof text === 'string') texts.push(text);
    } catch (error) {
      texts.push(`(throws ${String(error)})`);
    }
  };
  let current: unknown = value;
  for (let depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    const e = current as Error & Record<string, unknown>;
    add(() => String(e.message));
    add(() => e.stack);
    add(() => String(e));
    add(() => JSON.stringify(e));
    add(() => JSON.stringify(e.data));
    add(() => (typeof e.responseBody === 'string' ? e.responseBody : undefined));
    add(() => (typeof e.body === 'string' ? e.body : undefined));
    add(() => inspect(e, { showHidden: true, getters: true, depth: 10 }));
    current = e.cause;
  }
  return texts;
}

/** The forms of `key` found in any of the texts (empty: no leak). */
export function leaksIn(texts: string[], key: string): string[] {
  const forms = keyForms(key);
  const found = new Set<string>();
  for (const text of texts)
    for (const [name, form] of Object.entries(forms)) if (text.includes(form)) found.add(name);
  // The base64 of the key inside a longer base64 text: its stable middle.
  const middle = Buffer.from(key).toString('base64').slice(4, -4);
  if (texts.some((t) => t.includes(middle))) found.add('base64 (inside)');
  return [...found];
}
