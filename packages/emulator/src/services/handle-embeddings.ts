import type { RequestContext } from '../request-context';

export function handleEmbeddings(_ctx: RequestContext): Response {
  return new Response('not yet', { status: 501 });
}
