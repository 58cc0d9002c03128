// docs/gateway-protocol.md §4.8 (every structured answer checked against its schema), §4.5.
/**
 * A structured answer checked against the schema before the caller gets it, on every method (a
 * `provider_claimed` model may not keep its word): by the schema's own `~standard.validate` when
 * the caller passed a zod or other Standard Schema, else by core's own JSON Schema check
 * (validate-json-schema.ts: no `eval`, which Workers and edge runtimes forbid, and a small share of
 * the steering module's chunk, which an app whose calls never steer never loads).
 */
import type {
  StandardPathSegment,
  StandardResult,
  StandardSchemaLike,
  StructuredOutputIssue,
  StructuredOutputMethod,
} from '../protocol/chat-route';
import { invalidStructuredOutput } from './invalid-structured-output';
import type { StructuredAnswer } from './structured-output-request';
import { pointerSegment, validateJsonSchema } from './validate-json-schema';

export type { StandardSchemaLike };

/** What an answer is checked against: the JSON Schema, and the caller's Standard Schema if any. */
export interface StructuredOutputCheck {
  /** The JSON Schema sent to the model; the check's rule unless `standard` is given. */
  schema: Record<string, unknown>;
  /** The caller's zod (or other Standard Schema) schema: it checks, and its output is the value. */
  standard?: StandardSchemaLike;
  /**
   * The names of the request's own tools: an answer calling one is a step of the caller's tool
   * loop, not checked; a call of any other tool is not the caller's, and never handed on.
   */
  tools?: readonly string[];
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
  answer: Pick<StructuredAnswer, 'value' | 'text'>,
  check: StructuredOutputCheck,
): Promise<unknown> {
  const result =
    check.standard === undefined
      ? checkJsonSchema(check.schema, answer.value)
      : await checkStandard(check.standard, answer.value);
  if (result.issues === undefined) return result.value;
  const issues = result.issues.slice(0, MAX_ISSUES);
  throw invalidStructuredOutput(model, { method, text: answer.text, issues, reason: 'schema' });
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
    .map((segment) =>
      pointerSegment(typeof segment === 'object' && segment !== null ? segment.key : segment),
    )
    .join('');
}

function checkJsonSchema(schema: Record<string, unknown>, value: unknown): CheckResult {
  const issues = validateJsonSchema(schema, value, MAX_ISSUES);
  return issues.length === 0 ? { value } : { issues };
}
