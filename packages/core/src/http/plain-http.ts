// docs/gateway-protocol.md §2.1 (plain `http://` to a remote host).
// Whether a base URL sends the key in clear text to another machine: checked when a client is
// made, so that only such a client warns (warn-plain-http.ts), once, before its first request.

/** localhost, 127.0.0.0/8 and [::1]: traffic that never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Whether requests to this base URL would carry the key in clear text to another machine. */
export function isPlainHttpToRemote(baseURL: string): boolean {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    return false;
  }
  return url.protocol === 'http:' && !isLoopbackHost(url.hostname);
}
