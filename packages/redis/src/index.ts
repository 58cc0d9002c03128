export { redisUrlFault } from '@infergate/core/internal';
export {
  createRedisBudget,
  type RedisBudget,
  type RedisBudgetOptions,
  type RedisBudgetStats,
} from './redis-budget';
export type { RedisTlsOptions } from './redis-connection';
