// A fetch wrapper that records what this process sends, so the tour can show it against any
// gateway: requests per endpoint, answer statuses, and the most requests in flight at once (a
// request counts until its body has been read to the end, cancelled or failed).

export interface RequestLog {
  fetch: typeof fetch;
  /** Requests sent, by path after `/v1` (`/chat/completions`, `/models`, …). */
  sent(path: string): number;
  /** Statuses of the answers, in order. */
  statuses: number[];
  inFlight: number;
  maxInFlight: number;
  reset(): void;
}

function endpointPath(input: RequestInfo | URL): string {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const at = url.pathname.indexOf('/v1/');
  return at === -1 ? url.pathname : url.pathname.slice(at + 3);
}

export function createRequestLog(base: typeof fetch = globalThis.fetch): RequestLog {
  const counts = new Map<string, number>();
  const log: RequestLog = {
    statuses: [],
    inFlight: 0,
    maxInFlight: 0,
    sent: (path) => counts.get(path) ?? 0,
    reset() {
      counts.clear();
      log.statuses = [];
      log.maxInFlight = log.inFlight;
    },
    fetch: async (input, init) => {
      const path = endpointPath(input);
      counts.set(path, (counts.get(path) ?? 0) + 1);
      log.inFlight++;
      log.maxInFlight = Math.max(log.maxInFlight, log.inFlight);
      let finished = false;
      const finish = () => {
        if (!finished) {
          finished = true;
          log.inFlight--;
        }
      };
      let response: Response;
      try {
        response = await base(input, init);
      } catch (error) {
        finish();
        throw error;
      }
      log.statuses.push(response.status);
      if (!response.body) {
        finish();
        return response;
      }
      const reader = response.body.getReader();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const { done, value } = await reader.read();
            if (done) {
              finish();
              controller.close();
            } else controller.enqueue(value);
          } catch (error) {
            finish();
            controller.error(error);
          }
        },
        cancel(reason) {
          finish();
          return reader.cancel(reason);
        },
      });
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    },
  };
  return log;
}
