// docs/gateway-protocol.md §2.4 (response headers we read), §5.3 and §10.3 (an error keeps the
// headers of the answer it came from).
/**
 * The headers of the answer an error came from, as a plain record for `responseHeaders`: names in
 * lower case, `set-cookie` left out (a session is no part of an error), each value through
 * `redact` (the API key, echoed by a proxy). An error answer's, and a 2xx answer's that cannot be
 * used (not JSON, an error in its body or its stream): its `x-request-id` is what support asks for.
 */
export function responseHeadersOf(
  headers: Headers,
  redact: (text: string) => string,
): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (name.toLowerCase() !== 'set-cookie') record[name.toLowerCase()] = redact(value);
  });
  return record;
}
