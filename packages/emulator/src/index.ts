export type { EmulatorCounters, EndpointName } from './counters';
export { createEmulator, type Emulator } from './emulator';
export { FAULT_NAMES, type FaultName, type FaultRule } from './faults';
export type { GatewayErrorCode } from './gateway-error';
export {
  DEFAULT_KEYS,
  defaultScenario,
  type EmbeddingsServiceSpec,
  type EngineSpec,
  type KeySettings,
  type Latency,
  type ModelCapability,
  type ModelOwner,
  type ModelSpec,
  type OptionalCapability,
  resolveScenario,
  type Scenario,
  type ScenarioInput,
  type ServiceId,
  type ServiceSpec,
  type ServicesSpec,
} from './scenario';
export { type RunningEmulator, type StartEmulatorOptions, startEmulator } from './server';
