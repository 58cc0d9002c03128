// docs/gateway-protocol.md §4.8 (every structured answer checked against its schema), §4.5.
/**
 * A structured answer checked against the schema before the caller gets it, on every method (a
 * `provider_claimed` model may not keep its word): by the schema's own `~standard.validate` when
 * the caller passed a zod or other Standard Schema, else by `@cfworker/json-schema`, a JSON Schema
 * validator that runs without `eval` (Workers and edge runtimes forbid it) and that every
 * LangChain app already has through `@langchain/core`. This file is the only one that imports it,
 * and it is bundled into the steering module's chunk (tsup.config.ts `noExternal`): no fourth lazy
 * boundary, and an app whose calls never steer never loads it.
 */
import { type SchemaDraft, Validator } from '@cfworker/json-schema';
import type {
  StandardPathSegment,
  StandardResult,
  StandardSchemaLike,
  StructuredOutputIssue,
  StructuredOutputMethod,
} from '../protocol/chat-route';
import { invalidStructuredOutput } from './invalid-structured-output';
import type { StructuredAnswer } from './structured-output-request';

export type { StandardSchemaLike };

/** What an answer is checked against: the JSON Schema, and the caller's Standard Schema if any. */
export interface StructuredOutputCheck {
  /** The JSON Schema sent to the model; the check's rule unless `standard` is given. */
  schema: Record<string, unknown>;
  /** The caller's zod (or other Standard Schema) schema: it checks, and its output is the value. */
  standard?: StandardSchemaLike;
}

/** Issues kept on an error: enough to repair an answer, bounded for a schema-breaking flood. */
const MAX_ISSUES = 20;

/**
 * The answer's value when it follows the schema (the Standard Schema's output, which may differ
 * from its input: defaults, transforms), else `invalid_structured_output` with the text and the
 * issues. `model` and `method` name the model and its method in the error.
 */
export async function checkStructuredAnswer(
  model: string,
  method: StructuredOutputMethod,
  answer: StructuredAnswer,
  check: StructuredOutputCheck,
): Promise<unknown> {
  const result =
    check.standard === undefined
      ? checkJsonSchema(check.schema, answer.value)
      : await checkStandard(check.standard, answer.value);
  if (result.issues === undefined) return result.value;
  const issues = result.issues.slice(0, MAX_ISSUES);
  throw invalidStructuredOutput(model, { method, text: answer.text, issues });
}

type CheckResult = { value: unknown; issues?: undefined } | { issues: StructuredOutputIssue[] };

async function checkStandard(standard: StandardSchemaLike, value: unknown): Promise<CheckResult> {
  let result: StandardResult;
  try {
    result = await standard['~standard'].validate(value);
  } catch (error) {
    // A validate that throws refuses the answer; the error says why (typed, for every model).
    const why = error instanceof Error ? error.message : String(error);
    return { issues: [{ message: `the Standard Schema's validate threw: ${why.slice(0, 200)}` }] };
  }
  if (result.issues === undefined) return { value: result.value };
  const issues = result.issues.map(({ message, path }) => ({
    message,
    path: pointerOf(path ?? []),
  }));
  return { issues: issues.length > 0 ? issues : [{ message: 'the schema refused the answer' }] };
}

/** A Standard Schema issue's path as a JSON pointer (`/address/city`), like the validator's. */
function pointerOf(path: ReadonlyArray<StandardPathSegment>): string {
  return path
    .map((segment) => {
      const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
      return `/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;
    })
    .join('');
}

/** A validator per schema object: a walk checks the same schema for every model and every call. */
const validators = new WeakMap<object, Validator>();

function checkJsonSchema(schema: Record<string, unknown>, value: unknown): CheckResult {
  let validator = validators.get(schema);
  if (validator === undefined) {
    // The validator marks the schema's objects as it reads them: it gets a copy of its own.
    validator = new Validator(structuredClone(schema), draftOf(schema), false);
    validators.set(schema, validator);
  }
  const result = validator.validate(value);
  if (result.valid) return { value };
  // Without short-circuit, each failing keyword is reported with those of its parents
  // ("property x does not match"): the innermost ones say what is wrong.
  const errors = result.errors.slice(0, MAX_ISSUES * 10);
  const innermost = errors.filter(
    (error) => !errors.some((other) => other !== error && isInside(other, error)),
  );
  return {
    issues: innermost.map((error) => ({
      message: error.error,
      path: error.instanceLocation.replace(/^#/, ''),
    })),
  };
}

function isInside(inner: { keywordLocation: string }, outer: { keywordLocation: string }): boolean {
  return inner.keywordLocation.startsWith(`${outer.keywordLocation}/`);
}

/** The draft a schema declares in `$schema` (zod 4 and most tools write 2020-12; `ai`, draft-07). */
function draftOf(schema: Record<string, unknown>): SchemaDraft {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('draft-04')) return '4';
  if (declared.includes('draft-07') || declared.includes('draft-06')) return '7';
  if (declared.includes('2019-09')) return '2019-09';
  return '2020-12';
}
