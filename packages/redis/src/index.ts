export {
  createRedisBudget,
  type RedisBudget,
  type RedisBudgetOptions,
  type RedisBudgetStats,
} from './redis-budget';
export type { RedisTlsOptions } from './redis-connection';
export { redisUrlFault } from './url-form';
