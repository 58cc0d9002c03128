// docs/gateway-protocol.md §4.7 (a listed model that keeps failing is planned around for a while).
import { realmValue } from '../budget/realm';
import { monotonicNow } from '../call/monotonic-clock';
import type { GatewayError } from '../errors/errors';
import { isServerFailureStatus } from '../errors/retryable-failure';
import type { CallEvents } from '../events/call-events';
import type { SkippedModel } from '../protocol/chat-route';
import { setRecent } from './recently-used';
import type { CircuitBreakerOptions } from './steering-options';

/**
 * The failures of a streak whose end times are kept: a client trips at its `failures`-th, so a
 * threshold above this trips at the last one kept (a few ms early, nothing more).
 */
const KEPT_FAILURES = 64;

/** A model's last outcomes kept for its failure share, and how many it takes to judge one. */
const RECENT_OUTCOMES = 20;
const JUDGED_FROM = 10;
/**
 * How long an outcome counts towards the share: a model tried after the others gets its place
 * back once its failures are this old.
 */
const RECENT_MS = 60_000;

/**
 * What the realm has seen of one model, per (key, base URL with its path, model): plain data on the
 * realm's shared state (budget/realm.ts), the same for every client and every copy of core. It
 * holds observations only, never a client's thresholds: each client reads it with its own.
 */
interface Observations {
  /** Model failures in a row since its last answer. */
  streak: number;
  /** When the streak's first failures ended (monotonic ms, up to KEPT_FAILURES). */
  failedAt: number[];
  /** Probes failed in a row: each doubles every client's cooldown. */
  failedProbes: number;
  /** When the last of them failed (0: none in this streak). */
  probeFailedAt: number;
  /** The probe in flight, as its call's token: one at a time, realm-wide. */
  probe: object | undefined;
  /** When the model last answered: a failure of a request sent before is old news. */
  answeredAt: number;
  /**
   * When its last failure counted ended (0: none since its last answer): an answer to a request
   * sent before is old news. (Absent on an entry an older copy of core made: none.)
   */
  failedLastAt?: number;
  /**
   * The lowest `failures` of the clients that recorded its outcomes, kept across answers: its
   * breaker is open for one of them while the streak reaches it. (Absent: none recorded yet.)
   */
  tightestFailures?: number;
  /**
   * Its last attempts' outcomes, oldest first (up to RECENT_OUTCOMES), kept across answers: when
   * each ended (monotonic ms) and whether it was a model failure.
   */
  recent: { at: number; failed: boolean }[];
}

// (A name of its own: an older copy of core in the realm keeps its own shape under 'breakers'.)
const observed = () => realmValue('circuit-observations', () => new Map<string, Observations>());

/**
 * Entries kept (many keys): past it the least recently used is forgotten, a healthy one (an
 * answer, no failure since, no probe) among the oldest few first. A model forgotten is judged
 * afresh, as one never seen.
 */
export const MAX_ENTRIES = 4096;

const isHealthy = (seen: Observations) => seen.streak === 0 && seen.probe === undefined;

/**
 * The models each client told open (a `circuit-open` to one of its calls), by the client's options
 * (one object per client, read at its creation): per key, the observations it saw open. An answer
 * that closes a model replaces its observations (`#answered`): an entry no longer the one the
 * client saw says another client's answer closed it meanwhile (or it was forgotten, judged
 * afresh), and the client's next call to plan or record the model tells it (`circuit-close`).
 * Kept per client, not on the shared observations: an event goes to a call, and the call that was
 * told the model opened may have ended by the time another client's answer closes it.
 */
const toldOpen = new WeakMap<object, Map<string, Observations>>();

/** Stores `value` as the most recently used, the least recently used forgotten past MAX_ENTRIES. */
function remember(key: string, value: Observations): void {
  setRecent(observed(), key, value, MAX_ENTRIES, isHealthy);
}

function fresh(answeredAt: number, recent: Observations['recent'] = []): Observations {
  return {
    recent,
    streak: 0,
    failedAt: [],
    failedProbes: 0,
    probeFailedAt: 0,
    probe: undefined,
    answeredAt,
    failedLastAt: 0,
  };
}

/** `recent` with one more outcome, the oldest dropped past RECENT_OUTCOMES. */
function outcomeAdded(
  recent: Observations['recent'] = [],
  at: number,
  failed: boolean,
): Observations['recent'] {
  const kept = recent.length < RECENT_OUTCOMES ? recent : recent.slice(1);
  kept.push({ at, failed });
  return kept;
}

/**
 * A failure that says the model is unwell, not the caller's request: a 502, 503 or 504 or
 * another status the retry policy reads as the server's failure (`isServerFailureStatus`: 408,
 * 409, 520–529), a provider's error, a 2xx answer whose connection failed before it was read or a stream cut
 * before its end. Never a 4xx the caller caused, a busy model (429: full, not broken), the key's
 * limit, the call's own deadline or abort, or a stall (a `timeout` with `stall`): a stall is judged
 * by the caller's own limit, like its deadline, and the observations are shared by every client
 * on the key, so a client with a tight limit would shut a model off for one with none (rv-steer F3).
 */
export function isModelFailure(error: GatewayError): boolean {
  if (error.stall !== undefined) return false;
  const { code, status } = error;
  if (status !== undefined && isServerFailureStatus(status)) return true;
  // A 2xx answer broken off before it could be used: its connection failed midway (§10.3), a
  // stream's body ended before its end (`stream_incomplete`: a structured stream held to its check),
  // or a body that cannot be read (`invalid_response`: a whole one not JSON, as a stream's
  // unreadable event is `provider_protocol_error`).
  const cut =
    code === 'network_error' || code === 'stream_incomplete' || code === 'invalid_response';
  if (cut && status !== undefined && status >= 200 && status < 300) return true;
  return (
    code === 'provider_unavailable' ||
    code === 'all_providers_failed' ||
    code === 'provider_request_failed' ||
    code === 'provider_protocol_error' ||
    code === 'request_timeout' ||
    // An answer that breaks the call's schema: the model does not keep its word (issue 52).
    code === 'invalid_structured_output'
  );
}

/**
 * One call's view of the breakers of its models (client option `circuitBreaker`, calls with
 * `fallbackModels`). Besides tripping on failures in a row, it tells which models fail often
 * without failing in a row (`failsOften`), for the plan to try them after the others. The
 * observations are shared realm-wide per key, base URL and model; whether a model is open is
 * this client's judgement of them: open once the failures in a row reach its `failures`, for its
 * `cooldownMs` doubled by each failed probe in a row (up to its `maxCooldownMs`), counted from the
 * failure that reached its threshold or the last failed probe.
 * A burst of failures is one trip: only a probe's failure lengthens the cooldown. After the
 * cooldown the first call to plan the model takes its one probe (realm-wide: one in flight at a
 * time, held until the probe's attempt ends or its call does — a stream's until the stream
 * ends); the others keep planning around it; a call takes one probe at most (several models
 * past their cooldowns: one probe each, by successive calls). An answer from the model closes it for
 * every client: the probe's, or one to a request sent after the model's last failure (an older
 * one, a stream begun before the outage, is old news, as a failure sent before its last answer is);
 * a client told it opened is told it closed at its next call that plans the model. A model that is the
 * call's only candidate is still tried: the caller asked for it; so is every one when all are open
 * (none a probe but the first call after a cooldown). Not shared across processes.
 */
export class CircuitBreakers {
  readonly #options: Required<CircuitBreakerOptions>;
  readonly #scope: string;
  readonly #events: CallEvents | undefined;
  /** The probes this call holds, by model. */
  readonly #probes = new Map<string, object>();

  /** `scope`: the key and base URL (`pathScopedId`). */
  constructor(
    options: Required<CircuitBreakerOptions>,
    scope: string,
    events: CallEvents | undefined,
  ) {
    this.#options = options;
    this.#scope = scope;
    this.#events = events;
  }

  #keyOf(model: string): string {
    return `${this.#scope}\n${model}`;
  }

  /**
   * Why `model` is left out of a plan now (`circuit_open`), or undefined: closed for this client,
   * (asked again at each later hop, round and hedge of the call: a breaker may open meanwhile),
   * its probe's turn (taken by this call), or no other candidate left (`others`: the models still
   * in the plan).
   */
  skip(model: string, others: readonly string[]): SkippedModel | undefined {
    const key = this.#keyOf(model);
    this.#closedMeanwhile(model, key);
    // Asked again at a later hop: the probe this call took is its to send.
    if (this.#probes.has(model)) return undefined;
    const seen = observed().get(key);
    const openUntil = seen === undefined ? 0 : this.#openUntil(seen);
    if (seen === undefined || openUntil === 0) return undefined;
    this.#toldOnce(model, key, seen);
    // In use while planned around: kept as recently used, not forgotten in its cooldown.
    remember(key, seen);
    const now = monotonicNow();
    // The probe first, even when every other candidate is open too: the first call after the
    // cooldown is the probe (its event; its failure a failed probe), not one tried anyway. One
    // probe per call: another model's is left for the next call, so each gets its own.
    if (now >= openUntil && seen.probe === undefined && this.#probes.size === 0) {
      const token = {};
      seen.probe = token;
      this.#probes.set(model, token);
      this.#events?.circuit('circuit-probe', model);
      return undefined;
    }
    // Every other candidate open (in or past its cooldown: open until a probe answers): tried
    // anyway, no probe.
    if (others.every((other) => other === model || this.#isOpen(other))) return undefined;
    return {
      model,
      reason: 'circuit_open',
      detail: `Model "${model}" failed ${seen.streak} times in a row: its circuit breaker is ${this.#openState(seen, openUntil, now)}`,
    };
  }

  /**
   * `circuit-close` to this call when this client was told `model` opened and another client's
   * answer has closed it since (its observations replaced, or forgotten): every client told it
   * opened is told it closed, at its next call that plans or records it.
   */
  #closedMeanwhile(model: string, key: string): void {
    const told = toldOpen.get(this.#options);
    const seen = told?.get(key);
    const now = observed().get(key);
    if (told === undefined || seen === undefined || now === seen) return;
    // Opened again since, for this client too: it never saw it closed, so it is still told open;
    // its close comes when the model closes again (else two closes for one open).
    if (now !== undefined && this.#openUntil(now) !== 0) {
      told.set(key, now);
      return;
    }
    told.delete(key);
    this.#events?.circuit('circuit-close', model);
  }

  /**
   * `circuit-open` to this call when this client finds `model` open without having been told:
   * another client's failures opened it (one past this client's threshold), so its close is paired.
   */
  #toldOnce(model: string, key: string, seen: Observations): void {
    if (this.#events === undefined || toldOpen.get(this.#options)?.get(key) === seen) return;
    this.#tell(model, key, seen);
  }

  #tell(model: string, key: string, seen: Observations): void {
    this.#events?.circuitOpen(model, this.#cooldown(seen));
    // Told: its `circuit-close` is owed when any client's answer closes it (`#closedMeanwhile`).
    const told = toldOpen.get(this.#options) ?? new Map<string, Observations>();
    toldOpen.set(this.#options, told);
    setRecent(told, key, seen, MAX_ENTRIES);
  }

  /** Why an open model is skipped: its cooldown, its probe in flight, or left to the next call. */
  #openState(seen: Observations, openUntil: number, now: number): string {
    if (now < openUntil) return `open for ${Math.ceil(openUntil - now)} ms more`;
    if (seen.probe !== undefined) return 'open, its one probe in flight';
    // Past its cooldown, its probe free: this call holds another model's (one probe per call).
    const held = [...this.#probes.keys()][0];
    return `open past its cooldown, its probe left to the next call (this call probes "${held}")`;
  }

  /** Until when this client holds `seen`'s model open (monotonic ms; 0: closed). */
  #openUntil(seen: Observations): number {
    const { failures } = this.#options;
    if (seen.streak < failures) return 0;
    const tripped = seen.failedAt[Math.min(failures, seen.failedAt.length) - 1] ?? 0;
    return Math.max(tripped, seen.probeFailedAt) + this.#cooldown(seen);
  }

  #cooldown(seen: Observations): number {
    const { cooldownMs, maxCooldownMs } = this.#options;
    return Math.min(maxCooldownMs, cooldownMs * 2 ** seen.failedProbes);
  }

  /**
   * Whether `model` failed at least this client's `failureShare` of its recent attempts (its last
   * RECENT_OUTCOMES that ended in the last RECENT_MS, judged from JUDGED_FROM on): the plan then
   * tries it after the models that fail less. Never a model whose probe this call holds (the probe
   * is the point of the call's trying it).
   */
  failsOften(model: string): boolean {
    if (this.#probes.has(model)) return false;
    const seen = observed().get(this.#keyOf(model));
    if (seen === undefined) return false;
    const since = monotonicNow() - RECENT_MS;
    const counted = seen.recent.filter((outcome) => outcome.at >= since);
    if (counted.length < JUDGED_FROM) return false;
    const failed = counted.filter((outcome) => outcome.failed).length;
    return failed / counted.length >= this.#options.failureShare;
  }

  /**
   * Whether `model` is open with no call to send to it: in its cooldown, or past it with its probe
   * taken (by this call too). One past its cooldown whose probe is free is a candidate: its probe
   * is the next call's to take.
   */
  #isOpen(model: string): boolean {
    const seen = observed().get(this.#keyOf(model));
    if (seen === undefined) return false;
    const openUntil = this.#openUntil(seen);
    return openUntil !== 0 && (monotonicNow() < openUntil || seen.probe !== undefined);
  }

  /**
   * An attempt on `model` ended, `ms` after it was sent: `failure` undefined when it answered.
   * Emits `circuit-open` when this failure opened the breaker for this client (its threshold
   * reached, or its probe failed), `circuit-close` when this answer closed one it held open (or
   * another client's answer closed one this client was told opened: `#closedMeanwhile`).
   */
  record(model: string, failure: GatewayError | undefined, ms: number): void {
    const key = this.#keyOf(model);
    this.#closedMeanwhile(model, key);
    const seen = observed().get(key);
    const token = this.#probes.get(model);
    this.#probes.delete(model);
    const probing = token !== undefined && seen?.probe === token;
    if (probing) seen.probe = undefined;
    if (failure !== undefined && !isModelFailure(failure)) return;
    const now = monotonicNow();
    const observations = seen ?? fresh(0);
    observations.recent = outcomeAdded(observations.recent, now, failure !== undefined);
    const tightest = Math.min(observations.tightestFailures ?? Infinity, this.#options.failures);
    observations.tightestFailures = tightest;
    remember(key, observations);
    // Old news is counted in the recent outcomes and nothing more: a failure sent before the
    // model's last answer, and an answer sent before its last failure while any client holds the
    // breaker open (a stream begun before an outage, ended in it: it stays open). While closed for
    // all, any answer ends the streak, or overlapping streams of a model failing now and then
    // would add up its failures. The probe's own answer closes it anyway.
    const sentAt = now - ms;
    if (failure !== undefined) {
      if (sentAt >= observations.answeredAt) this.#failed(model, observations, probing, now);
    } else if (
      probing ||
      sentAt >= (observations.failedLastAt ?? 0) ||
      observations.streak < tightest
    ) {
      this.#answered(model, observations, probing, now);
    }
  }

  /** An answer counted: the streak ends, and a breaker this client held open closes. */
  #answered(model: string, seen: Observations, probing: boolean, now: number): void {
    const wasOpen = probing || this.#openUntil(seen) !== 0;
    const key = this.#keyOf(model);
    // (A probe of another call still in flight is no longer one: it closed without it.)
    remember(key, { ...fresh(now, seen.recent), tightestFailures: seen.tightestFailures });
    // Closed only to a client told it opened: each open has one close.
    const told = toldOpen.get(this.#options)?.delete(key) ?? false;
    if (wasOpen && told) this.#events?.circuit('circuit-close', model);
  }

  /** A model failure counted: the streak grows; a probe's failure also lengthens the cooldown. */
  #failed(model: string, seen: Observations, probing: boolean, now: number): void {
    const wasOpen = this.#openUntil(seen) !== 0;
    seen.streak++;
    if (seen.failedAt.length < KEPT_FAILURES) seen.failedAt.push(now);
    seen.failedLastAt = now;
    if (probing) {
      seen.failedProbes++;
      seen.probeFailedAt = now;
    }
    const opened = probing || (!wasOpen && seen.streak >= this.#options.failures);
    if (!opened || this.#events === undefined) return;
    this.#tell(model, this.#keyOf(model), seen);
  }

  /**
   * The call ended: a probe it took and never sent is given back, for the next call to take.
   * `except`: a stream's answering model, whose probe is held until the stream ends (its outcome
   * then `record`ed: `SteeredAnswer.ended`).
   */
  release(except?: string): void {
    for (const [model, token] of this.#probes) {
      if (model === except) continue;
      const seen = observed().get(this.#keyOf(model));
      if (seen?.probe === token) seen.probe = undefined;
      this.#probes.delete(model);
    }
  }
}
