import type { RequestContext } from '../request-context';

export function handleTranscription(_ctx: RequestContext): Response {
  return new Response('not yet', { status: 501 });
}
