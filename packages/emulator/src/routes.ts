import type { EndpointName } from './counters';

export interface Route {
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

/** The endpoint of a path containing `/v1/` (any prefix before it, trailing slashes ignored). */
export function routeOf(pathname: string): Route | undefined {
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
