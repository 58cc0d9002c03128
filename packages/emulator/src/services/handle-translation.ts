import type { RequestContext } from '../request-context';

export function handleTranslation(_ctx: RequestContext): Response {
  return new Response('not yet', { status: 501 });
}
