export { caught } from './caught';
export {
  type EmulateAs,
  type EmulatedGateway,
  type EmulateOptions,
  emulate,
  type GatewayConnection,
} from './emulate';
export {
  inflightOf,
  type KeyOptions,
  type UntilOptions,
  until,
  untilCancelled,
  untilHeld,
  untilIdle,
  untilRequests,
} from './wait-for-state';
