import { chatModels } from '../../models';

export const dynamic = 'force-dynamic';

/** GET /api/models: the gateway’s chat models with their capabilities, for a client-side picker. */
export async function GET(): Promise<Response> {
  return Response.json(await chatModels());
}
