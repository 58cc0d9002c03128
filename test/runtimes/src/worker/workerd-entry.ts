// A Cloudflare Worker (module syntax): settings come from its env bindings; no nodejs_compat.
import { handle } from './handler';

interface Env {
  INFERGATE_BASE_URL: string;
  INFERGATE_API_KEY: string;
}

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    return handle(request, { baseURL: env.INFERGATE_BASE_URL, apiKey: env.INFERGATE_API_KEY });
  },
};
