import { streamingModels } from '../../models';

export const dynamic = 'force-dynamic';

/** GET /api/models: the gateway's streaming chat models, for a client-side picker. */
export async function GET(): Promise<Response> {
  return Response.json(await streamingModels());
}
