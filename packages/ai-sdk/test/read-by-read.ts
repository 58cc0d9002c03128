/** An SSE answer whose body gives `reads` one network read each, in order, then ends. */
export function sseReadByRead(reads: string[]): Response {
  const pending = reads.map((read) => new TextEncoder().encode(read));
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = pending.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(next);
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}
