// docs/gateway-protocol.md §4.7 (the waits a test drives): the kit's own safety nets do not.
/**
 * The real timers and clock, taken when the kit loads, before a test fakes them: a wait's safety
 * net (`until`, `pollUntil`) runs on the real clock, so a test that drives fake time past it
 * (`drivenClock`) never fails a wait whose event comes later in driven time. Not exported.
 */
export const realSetTimeout = globalThis.setTimeout;
export const realClearTimeout = globalThis.clearTimeout;
export const realNow = performance.now.bind(performance);
