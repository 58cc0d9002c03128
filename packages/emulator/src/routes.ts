// docs/gateway-protocol.md §3 to §9 (the endpoints under `/v1`).
import { handleCapabilities, handleModels } from './catalog';
import { handleChat } from './chat/handle-chat';
import type { EndpointName } from './counters';
import { errorResponse, invalidField } from './gateway-error';
import type { RequestContext } from './request-context';
import { handleEmbeddings } from './services/handle-embeddings';
import { handleOcr } from './services/handle-ocr';
import { handleTranscription } from './services/handle-transcription';
import { handleTranslation } from './services/handle-translation';

interface Route {
  endpoint: EndpointName;
  method: 'GET' | 'POST';
}

const ROUTES: Record<string, Route> = {
  '/v1/models': { endpoint: 'models', method: 'GET' },
  '/v1/capabilities': { endpoint: 'capabilities', method: 'GET' },
  '/v1/chat/completions': { endpoint: 'chat', method: 'POST' },
  '/v1/embeddings': { endpoint: 'embeddings', method: 'POST' },
  '/v1/ocr': { endpoint: 'ocr', method: 'POST' },
  '/v1/audio/transcriptions': { endpoint: 'transcriptions', method: 'POST' },
  '/v1/translations': { endpoint: 'translations', method: 'POST' },
};

/**
 * The endpoint of a path. `exact` (the HTTP server): the path itself, `/v1/models`. Otherwise
 * (the fetch handler, which a client may reach under any base URL such as
 * `https://proxy.test/tenants/a/v1`): the part from `/v1/` on, trailing slashes ignored.
 */
export function routeOf(pathname: string, exact = false): Route | undefined {
  if (exact) return Object.hasOwn(ROUTES, pathname) ? ROUTES[pathname] : undefined;
  const start = pathname.indexOf('/v1/');
  if (start === -1) return undefined;
  return ROUTES[pathname.slice(start).replace(/\/+$/, '')];
}

/** Paths outside the API: 404, not counted as a request to any endpoint. */
export function notFound(method: string, pathname: string): Response {
  return new Response(
    JSON.stringify({
      error: {
        message: `No endpoint ${method} ${pathname}`,
        code: 'invalid_request_error',
        type: 'not_found_error',
      },
    }),
    { status: 404, headers: { 'content-type': 'application/json' } },
  );
}

/** A known path asked with the other method: 400 naming the method to use. */
export function wrongMethod(request: Request, route: Route, pathname: string): Response {
  return errorResponse(
    invalidField('method', `Use ${route.method} for ${pathname}, not ${request.method}`),
  );
}

/**
 * Runs the endpoint's handler. `inflight` counts the requests running on a model or service. An
 * answer a test holds waits once the handler accepted the request (it throws its refusals): after
 * the answer is made here, or inside the chat handler, whose stream takes the request's slots.
 */
export async function dispatch(
  endpoint: EndpointName,
  ctx: RequestContext,
  inflight: (resource: string) => number,
): Promise<Response> {
  if (endpoint === 'chat') return handleChat(ctx);
  const response = await answer(endpoint, ctx, inflight);
  await ctx.waitWhileHeld();
  return response;
}

function answer(
  endpoint: Exclude<EndpointName, 'chat'>,
  ctx: RequestContext,
  inflight: (resource: string) => number,
): Response | Promise<Response> {
  switch (endpoint) {
    case 'models':
      return handleModels(ctx, inflight);
    case 'capabilities':
      return handleCapabilities(ctx, inflight);
    case 'embeddings':
      return handleEmbeddings(ctx);
    case 'ocr':
      return handleOcr(ctx);
    case 'transcriptions':
      return handleTranscription(ctx);
    case 'translations':
      return handleTranslation(ctx);
  }
}
