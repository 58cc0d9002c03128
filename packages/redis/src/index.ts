export {
  createRedisBudget,
  type RedisBudget,
  type RedisBudgetOptions,
  type RedisBudgetStats,
} from './redis-budget';
