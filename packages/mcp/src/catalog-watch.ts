// docs/gateway-protocol.md §3.2 (the availability rule: which tools are offered), §3.3 (the catalog
// re-read, core's).
import type {
  CatalogWatch as CoreCatalogWatch,
  GatewayClient,
  GatewayService,
  ServiceId,
} from '@infergate/core';
import {
  SERVICE_OF_TOOL as CORE_SERVICE_OF_TOOL,
  isServiceOffered,
  RECHECK_MIN_MS,
} from '@infergate/core/internal';

/** The tools this server offers. */
export const TOOL_NAMES = [
  'translate',
  'ocr',
  'transcribe',
  'embed',
  'similarity',
  'list_models',
  'ask_model',
] as const;
export type GatewayToolName = (typeof TOOL_NAMES)[number];

/** The gateway service each service tool calls; the others need only the model catalog. */
const SERVICE_OF_TOOL: Partial<Record<GatewayToolName, ServiceId>> = {
  ...CORE_SERVICE_OF_TOOL,
  embed: 'embeddings',
  similarity: 'embeddings',
};

export type ToolAvailability = Record<GatewayToolName, boolean>;

const allAvailable = (): ToolAvailability =>
  Object.fromEntries(TOOL_NAMES.map((name) => [name, true])) as ToolAvailability;

/**
 * Which tools can be served from the catalog's services: core's availability rule,
 * `isServiceOffered` (LangChain's `createGatewayTools` filters its tools by it too; the AI SDK's
 * tools are not filtered, but core refuses their calls by the same rule). A service the catalog
 * does not list is offered.
 */
export function availabilityOf(services: readonly GatewayService[]): ToolAvailability {
  const available = allAvailable();
  for (const [tool, id] of Object.entries(SERVICE_OF_TOOL) as [GatewayToolName, ServiceId][]) {
    available[tool] = isServiceOffered(services, id);
  }
  return available;
}

/**
 * The least time between two re-reads of the services that service calls answered
 * `provider_unavailable` ask for: core's rule (its catalog watch does these reads), named here for
 * this package's tests.
 */
export { RECHECK_MIN_MS };

/**
 * Keeps the tools' availability in step with the gateway's `GET /capabilities`, through core's
 * catalog watch (`client.watchCatalog`: it reads past the cache every `intervalMs`, on `refresh()`,
 * and after a service call answered `provider_unavailable`, by core's rule: see core's README,
 * "The catalog watch"). This class only maps each list read to the tools. A read that fails keeps
 * what was known (a gateway hiccup must not empty the tool list); until the first read, every
 * tool is offered.
 */
export class CatalogWatch {
  readonly #client: GatewayClient;
  readonly #onChange: (availability: ToolAvailability) => void;
  readonly #watch: CoreCatalogWatch;
  #availability: ToolAvailability = allAvailable();
  /** Whether the last list read changed the availability. */
  #changed = false;

  constructor(
    client: GatewayClient,
    intervalMs: number,
    onChange: (availability: ToolAvailability) => void,
  ) {
    this.#client = client;
    this.#onChange = onChange;
    this.#watch = client.watchCatalog(intervalMs, (services) => this.#apply(services));
  }

  get availability(): Readonly<ToolAvailability> {
    return this.#availability;
  }

  /** Reads the catalog now; resolves to whether the availability changed. Never rejects. */
  async refresh(): Promise<boolean> {
    return (await this.#watch.refresh()) && this.#changed;
  }

  /**
   * A tool the list left out was called: core read the services again before the call (its rule
   * for a service its cached list refuses), so its cache has them; the list follows that copy,
   * with no read of its own while it is fresh.
   */
  async fromCache(): Promise<void> {
    try {
      this.#apply(await this.#client.services());
    } catch {
      // (A read that fails keeps what was known, as the watch's reads do.)
    }
  }

  close(): void {
    this.#watch.close();
  }

  #apply(services: readonly GatewayService[]): void {
    const next = availabilityOf(services);
    this.#changed = TOOL_NAMES.some((name) => next[name] !== this.#availability[name]);
    this.#availability = next;
    if (this.#changed) this.#onChange(next);
  }
}
