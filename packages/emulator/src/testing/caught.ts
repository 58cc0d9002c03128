/**
 * The error a call rejects with (or a function throws): `await caught(client.chat(…))` or
 * `await caught(() => parse(…))`. Fails when the call succeeds. With `guard` (say core's
 * `isGatewayError`), the error is also checked and typed; without, it must be an `Error`.
 */
export async function caught<E = Error>(
  run: PromiseLike<unknown> | (() => unknown),
  guard?: (error: unknown) => error is E,
): Promise<E> {
  let outcome: unknown;
  try {
    outcome = await (typeof run === 'function' ? run() : run);
  } catch (error) {
    const expected = guard ? guard(error) : error instanceof Error;
    if (expected) return error as E;
    throw new Error(`caught: the call failed with another kind of error: ${describe(error)}`, {
      cause: error,
    });
  }
  throw new Error(`caught: expected the call to fail; it gave ${describe(outcome)}`);
}

function describe(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    return JSON.stringify(value)?.slice(0, 200) ?? String(value);
  } catch {
    return String(value);
  }
}
