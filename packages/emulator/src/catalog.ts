// docs/gateway-protocol.md §3.1 (`GET /models`), §3.2 (`GET /capabilities`).
import { jsonResponse } from './gateway-error';
import { listedModels } from './model-access';
import type { RequestContext } from './request-context';
import type { ModelSpec, ServiceId } from './scenario';

/** Fixed `created` timestamp so listings are byte-for-byte stable. */
const CREATED = 1_735_689_600;

const SERVICE_ENDPOINTS: Record<ServiceId, string> = {
  translation: '/v1/translations',
  ocr: '/v1/ocr',
  speech_to_text: '/v1/audio/transcriptions',
  embeddings: '/v1/embeddings',
};

function modelEntry(id: string, spec: ModelSpec, inflight: number): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    id,
    object: 'model',
    created: CREATED,
    owned_by: spec.owned_by,
    name: spec.name ?? id,
    kind: 'chat',
    capabilities: spec.capabilities.includes('chat')
      ? [...spec.capabilities]
      : ['chat', ...spec.capabilities],
  };
  if (spec.verification) entry.verification = spec.verification;
  if (spec.pool) entry.pool = spec.pool;
  if (typeof spec.copies === 'number') entry.copies = spec.copies;
  entry.available_nodes = spec.owned_by === 'service-pool' ? (spec.copies ?? 1) : 1;
  if (typeof spec.capacity === 'number') entry.capacity = spec.capacity;
  entry.inflight = inflight;
  if (spec.listing === 'no_capabilities') delete entry.capabilities;
  if (spec.listing === 'no_id') delete entry.id;
  return entry;
}

/** GET /models: online models the key may use. */
export function handleModels(
  ctx: RequestContext,
  inflight: (resource: string) => number,
): Response {
  const data = listedModels(ctx.scenario, ctx.key).map(([id, spec]) =>
    modelEntry(id, spec, inflight(`model:${id}`)),
  );
  return jsonResponse({ object: 'list', data });
}

/**
 * Providers offering the service now. Embeddings with no engine available answer
 * `provider_unavailable` (§3.2), which the spec ties to `available_nodes` 0: so 0, whatever the
 * scenario's count.
 */
function availableNodes(ctx: RequestContext, id: ServiceId): number {
  const { services } = ctx.scenario;
  if (id === 'embeddings') {
    const engines = Object.values(services.embeddings.engines);
    if (!engines.some((engine) => engine.available !== false)) return 0;
  }
  return services[id].availableNodes;
}

/** GET /capabilities: one entry per service; the embeddings entry lists available engines. */
export function handleCapabilities(
  ctx: RequestContext,
  inflight: (resource: string) => number,
): Response {
  const { services } = ctx.scenario;
  const data = (Object.keys(SERVICE_ENDPOINTS) as ServiceId[]).map((id) => {
    const spec = services[id];
    const entry: Record<string, unknown> = {
      id,
      object: 'capability',
      name: spec.name,
      endpoint: SERVICE_ENDPOINTS[id],
      available_nodes: availableNodes(ctx, id),
    };
    if (typeof spec.capacity === 'number') entry.capacity = spec.capacity;
    entry.inflight = inflight(`service:${id}`);
    if (id === 'embeddings') {
      entry.engines = Object.entries(services.embeddings.engines)
        .filter(([, engine]) => engine.available !== false)
        .map(([engineId, engine]) => {
          const listed: Record<string, unknown> = {
            id: engineId,
            name: engine.name,
            capacity: engine.capacity,
          };
          // Not in the spec's shape: only when the scenario asks for it.
          if (engine.listDimensions) listed.dimensions = engine.dimensions;
          return listed;
        });
    }
    return entry;
  });
  return jsonResponse({ object: 'list', data });
}
