// docs/gateway-protocol.md §2.5 (a request's duration: the call's deadline, its stall timeouts).
/**
 * The longest timer: `setTimeout` takes at most 2^31 − 1 ms (about 24.8 days) and fires a longer
 * one at once. Core clamps longer deadlines and ms options to it; the packages' own ms options
 * refuse more. In a module of its own so that the option checks need not load the call's scope.
 */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;
