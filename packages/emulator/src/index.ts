export { CHAT_DIALECTS, type ChatDialect } from './chat/dialects';
export { ScenarioError } from './check-scenario';
export { type CorsOption, withCors } from './cors';
export type { EmulatorCounters, EndpointName } from './counters';
export { DEFAULT_KEYS, defaultScenario } from './default-scenario';
export { createEmulator, type Emulator } from './emulator';
export { FAULT_NAMES, type FaultName, type FaultRule } from './faults';
export type { GatewayErrorCode } from './gateway-error';
export type { HoldOptions } from './held-answers';
export { MAX_BODY_BYTES } from './read-body';
export { resolveScenario } from './resolve-scenario';
export type {
  EmbeddingsServiceSpec,
  EngineSpec,
  JsonAnswers,
  KeySettings,
  Latency,
  LatencyDistribution,
  ModelCapability,
  ModelOwner,
  ModelSpec,
  OptionalCapability,
  Scenario,
  ScenarioInput,
  ServiceId,
  ServiceSpec,
  ServicesSpec,
} from './scenario';
export { type RunningEmulator, type StartEmulatorOptions, startEmulator } from './server';
