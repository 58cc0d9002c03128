// docs/gateway-protocol.md §4.2 (capability rules, checked before sending through core's gate).
import {
  type CallOptions,
  type GatewayClient,
  type GatewayModel,
  isGatewayError,
  type ModelCapability,
} from '@infergate/core';
import {
  capabilitiesOf,
  checkCapabilities,
  type ListedCapabilities,
  listedCapabilities,
} from '@infergate/core/internal';
import { throwIfAborted } from '../utils/errors';

/** What the gate reads from the chat model on every check (both fields may change). */
interface GatedModel {
  readonly model: string;
  readonly capabilities?: readonly string[];
  readonly fallbackModels?: readonly string[];
}

/**
 * The chat model's side of core's capability gate: capabilities passed by the user are checked at
 * once (bind time); core gates every call itself. The capabilities read from the client's cached
 * catalog are remembered for `profile` (and whether to stream) under the model id they belong to.
 */
export class ChatModelCapabilityGate {
  readonly #client: GatewayClient;
  readonly #model: GatedModel;
  /** Catalog snapshot from `GatewayChatModel.create`, to name alternatives before any call. */
  catalog: readonly GatewayModel[] | undefined;
  /** The last catalog read's capabilities for `model` (undefined: its entry gives none). */
  #learned: { model: string; capabilities: readonly string[] | undefined } | undefined;

  constructor(client: GatewayClient, model: GatedModel) {
    this.#client = client;
    this.#model = model;
  }

  /** Passed capabilities, else those learned for the current `model` id. */
  known(): readonly string[] | undefined {
    const { model, capabilities } = this.#model;
    if (capabilities) return capabilities;
    return this.#learned?.model === model ? this.#learned.capabilities : undefined;
  }

  /**
   * What a call can count on whichever model of the model's fallback list answers (`profile`):
   * each listed model's capabilities, the model's own first. Unknown (undefined) while one of them
   * is unknown.
   */
  knownForList(): (readonly string[])[] | undefined {
    const own = this.known();
    if (!own) return undefined;
    const each = [own];
    for (const id of this.#model.fallbackModels ?? []) {
      const entry = this.catalog?.find((listed) => listed.id === id);
      const capabilities = entry && capabilitiesOf(entry);
      if (!capabilities) return undefined;
      each.push(capabilities);
    }
    return each;
  }

  /**
   * Remembers the capabilities of the model's catalog entry as read now (`GatewayChatModel.create`):
   * `profile` is known before any call; each call reads the catalog again, as for any model.
   */
  learnFrom(entry: GatewayModel | undefined): void {
    if (entry) this.#learned = { model: this.#model.model, capabilities: capabilitiesOf(entry) };
  }

  /**
   * Remembers the capabilities core's gate refused the model's call with (on its
   * `unsupported_model_capability` error): what its catalog read found, learnt without another.
   */
  learnFromRefusal(error: unknown): void {
    if (!isGatewayError(error) || error.code !== 'unsupported_model_capability') return;
    const { model, capabilities } = error;
    if (model === this.#model.model && capabilities) this.#learned = { model, capabilities };
  }

  /** Refuses at once when the capabilities were passed; otherwise the request-time gate does. */
  assertKnown(needs: ModelCapability[], purpose: string): void {
    const { model, capabilities } = this.#model;
    if (!capabilities) return;
    checkCapabilities({ model, capabilities, catalog: this.catalog, needs, purpose });
  }

  /**
   * Learns the model's capabilities for `profile` once a call went through core's gate, which read
   * the catalog it needed as one of the call's requests (its events the call's children): a cached
   * look-up here. Never fails the call it follows (an abort or a failed read leaves them unknown).
   */
  async learnAfterCall(lookup: CallOptions): Promise<void> {
    // The fallback list's models are read from the catalog core's gate read to walk it.
    if (this.#model.fallbackModels?.length) {
      this.catalog = await this.#client.models(lookup).catch(() => this.catalog);
    }
    if (this.#model.capabilities) return;
    await this.learn(lookup).catch(() => undefined);
  }

  /**
   * Reads the model's capabilities (a cached catalog look-up), before a call that must know them
   * (whether `.stream()` streams). It refuses nothing: core's gate does, in the call. An id the
   * catalog does not list stays unknown (core refuses it with close matches, or skips it in a walk
   * over a fallback list).
   */
  async learn(lookup: CallOptions = {}): Promise<readonly string[] | undefined> {
    throwIfAborted(lookup.signal);
    try {
      return await this.load(lookup);
    } catch (error) {
      if (isGatewayError(error) && error.code === 'model_not_found') return undefined;
      throw error;
    }
  }

  /**
   * Each catalog model's capabilities, from the client's cached catalog (`GET /models`): for core's
   * plan of a call over a fallback list (whether every listed model streams). Read with the call's
   * look-up options (`GatewayChatModel`'s: its signal, deadline and retries), as `load` reads.
   */
  async listed(lookup: CallOptions = {}): Promise<ListedCapabilities> {
    return listedCapabilities(await this.#client.models(lookup));
  }

  /**
   * The model's capabilities through core's gate (checked against `needs`); undefined for an
   * unlisted own model. A read of the catalog is one request of the call: given the call's
   * look-up options (its signal, `maxRetries` and deadline, started once for the look-up and the
   * chat: `GatewayChatModel`'s `#queued`), never the chat's own.
   */
  async load(
    lookup: CallOptions = {},
    needs: readonly ModelCapability[] = [],
  ): Promise<readonly string[] | undefined> {
    const model = this.#model.model;
    let known = this.#model.capabilities;
    if (!known) {
      // Read from the client's cached catalog every time, so a changed catalog is seen.
      const listed = await this.#client.resolveModel(model, lookup);
      if (!listed) return undefined;
      const capabilities = capabilitiesOf(listed);
      known = capabilities && [...capabilities];
      this.#learned = { model, capabilities: known };
    }
    return this.#client.checkModel(model, needs, { ...lookup, known });
  }
}
