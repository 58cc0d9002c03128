/**
 * The semaphore's Lua scripts (EVAL; Redis ≥ 6 or any managed Redis with EVAL, e.g. Upstash).
 * Per budget id there are three keys under one hash tag (cluster-safe):
 *   {prefix:id}:holders  ZSET lease token → expiry (server ms): the slots in use
 *   {prefix:id}:queue    ZSET waiter token → ticket number: FIFO order of waiters
 *   {prefix:id}:seen     ZSET waiter token → expiry: waiters still alive (a crashed waiter leaves)
 *   {prefix:id}:seq      counter for tickets; {prefix:id}:expired counter of expired leases
 * Time comes from the server (TIME) so clocks of the processes never matter.
 */

/** KEYS: holders, queue, seen, seq, expired. ARGV: token, limit, ttlMs.
 *  Returns { granted (0/1), leases expired by this call }. A waiter is granted when it is among the
 *  first (limit − holders) of the queue, so slots go out in ticket order (FIFO across processes). */
export const ACQUIRE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[3])
local expired = redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if expired > 0 then redis.call('INCRBY', KEYS[5], expired) end
local gone = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)
if #gone > 0 then
  redis.call('ZREM', KEYS[2], unpack(gone))
  redis.call('ZREM', KEYS[3], unpack(gone))
end
if not redis.call('ZSCORE', KEYS[2], ARGV[1]) then
  redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[4]), ARGV[1])
end
redis.call('ZADD', KEYS[3], now + ttl, ARGV[1])
local free = tonumber(ARGV[2]) - redis.call('ZCARD', KEYS[1])
local rank = redis.call('ZRANK', KEYS[2], ARGV[1])
if free > 0 and rank < free then
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('ZREM', KEYS[3], ARGV[1])
  redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ttl * 2)
  return {1, expired}
end
redis.call('PEXPIRE', KEYS[2], ttl * 2)
redis.call('PEXPIRE', KEYS[3], ttl * 2)
return {0, expired}
`;

/** KEYS: holders, queue, seen. ARGV: token, channel, limit. Frees a slot (or leaves the queue) and
 *  wakes only the waiters now first in line for a free slot: it publishes their tokens (a waiter
 *  not named keeps sleeping until its bounded poll), so a release costs one script per woken
 *  waiter instead of one per waiter. Returns 1 when the token held a slot. */
export const RELEASE_SCRIPT = `
local held = redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
local free = tonumber(ARGV[3]) - redis.call('ZCARD', KEYS[1])
if free > 0 then
  local first = redis.call('ZRANGE', KEYS[2], 0, free - 1)
  if #first > 0 then redis.call('PUBLISH', ARGV[2], table.concat(first, ' ')) end
end
return held
`;

/** KEYS: holders. ARGV: token, ttlMs. Extends a held lease; 0 when it had already expired. */
export const REFRESH_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 2)
return 1
`;
