// docs/gateway-protocol.md §2.5 (the key's slots, counted as this runtime allows).
import { REQUEST_BOUND_IO } from '../call/call-scope';
import { RequestBoundSemaphore } from './request-bound-semaphore';
import { FifoSemaphore, type Semaphore } from './semaphore';

export interface SemaphoreOptions {
  /** Isolate runtimes (`REQUEST_BOUND_IO`, the default): the request-bound implementation. */
  requestBound?: boolean;
  /** Called each time the semaphore becomes idle (e.g. for its owner to forget it). */
  onIdle?: () => void;
}

/** The semaphore this runtime needs (request-bound in isolate runtimes, FIFO elsewhere). */
export function createSemaphore(options: SemaphoreOptions = {}): Semaphore {
  return (options.requestBound ?? REQUEST_BOUND_IO)
    ? new RequestBoundSemaphore(options.onIdle)
    : new FifoSemaphore(options.onIdle);
}
