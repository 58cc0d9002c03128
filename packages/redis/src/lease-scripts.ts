// docs/gateway-protocol.md §2.5 (at most the key's limit at once, across processes), §4.7 (a
// failover's next attempt ticketed ahead).
/**
 * The semaphore's Lua scripts (EVAL; Redis ≥ 6 or any managed Redis with EVAL, e.g. Upstash).
 * Per budget id the keys share one hash tag (Redis Cluster is refused all the same: redis-access.ts).
 * None has a TTL but `settle`: under a `volatile-*` maxmemory policy (the default of ElastiCache
 * and Memorystore) Redis evicts only keys with one, so it never evicts the leases; each script
 * removes what expired by its own scores instead. (An `allkeys-*` policy may evict any of them
 * alone: not supported, README "Managed Redis".)
 *   {prefix:id}:holders  ZSET lease token → expiry (server ms): the slots in use
 *   {prefix:id}:queue    ZSET waiter token → ticket number: FIFO order of waiters
 *   {prefix:id}:seen     ZSET waiter token → expiry: waiters still alive (a crashed waiter leaves)
 *   {prefix:id}:seq      counter for tickets: its absence means the id's state was never written
 *                        or has been lost (restart without persistence, FLUSHALL): then only an
 *                        acquire grants, after its census; a release or a refresh grants nothing
 *   {prefix:id}:expired  counter of expired leases
 *   {prefix:id}:limits   ZSET limit → expiry: the limits of the processes using the id lately;
 *                        the smallest applies to everyone, so tickets stay in order
 *   {prefix:id}:settle   set while live holders re-register after a loss; nothing is granted
 * A lease's token is `<budget instance>:<n>:<its process's TTL in ms>`: a slot handed to a waiter
 * is announced on that instance's own channel, {prefix:id}:wake:<instance>, so a release wakes one
 * process, not all; the TTL tells how often the waiter asks (processes of one key may use
 * different TTLs). A token without it (`<instance>:<n>`, an older version's) counts with the TTL
 * of the script's own process.
 * Time comes from the server (TIME) so clocks of the processes never matter.
 */

/** Shared preamble: server time in ms as `now`. */
const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/** Removes the waiters that stopped asking (their `seen` expired: a crashed or frozen process). */
const DROP_GONE = (queueKey: string, seenKey: string) => `
local gone = redis.call('ZRANGEBYSCORE', ${seenKey}, '-inf', now)
if #gone > 0 then
  redis.call('ZREM', ${queueKey}, unpack(gone))
  redis.call('ZREM', ${seenKey}, unpack(gone))
end
`;

/**
 * Defines `grant(free, own, limit)`: hands the free slots to the first waiters in ticket order
 * (FIFO across processes), each announced on its budget instance's wake channel (but `own`, the
 * waiter running the script) as `<token> <server ms of the grant> <server ms the lease expires>`,
 * and says whether `own` got one. (The times let the waiter tell a message that waited in its
 * socket while its process was paused, for a lease that may have expired meanwhile; the expiry is
 * the TTL of the process running this script, which may be shorter than the waiter's:
 * acquire-lease.ts, `freshHandover`.) A waiter whose channel nobody
 * listens on (PUBLISH answers 0: its process died, or its pub/sub connection is down) is passed
 * over, so a dead waiter never takes a slot for a TTL: it keeps its place while it asked lately
 * (within its own TTL/2, from its token: `seen` is its last ask plus that TTL; a live waiter asks
 * at least every TTL/3) and takes a slot when it asks itself;
 * past that it leaves the line. The waiters that thereby become one of the first `limit` in line
 * are told when the earliest lease expires (`near <ms> <token>`): until then they asked again only
 * every TTL/3, and a crashed holder's slot must not wait for that. Needs `now` and `ttl`.
 */
const GRANT = (holders: string, queueKey: string, seenKey: string, wakePrefix: string) => `
local function wake(token, message)
  return redis.call('PUBLISH', ${wakePrefix} .. string.match(token, '^[^:]+'), message)
end
local function grant(free, own, limit)
  if free <= 0 then return false end
  local mine = false
  local handed = 0
  local passed = 0
  while handed < free do
    local first = redis.call('ZRANGE', ${queueKey}, passed, passed + free - handed - 1)
    if #first == 0 then break end
    for _, token in ipairs(first) do
      if token == own or wake(token, token .. ' ' .. now .. ' ' .. (now + ttl)) > 0 then
        redis.call('ZREM', ${queueKey}, token)
        redis.call('ZREM', ${seenKey}, token)
        redis.call('ZADD', ${holders}, now + ttl, token)
        handed = handed + 1
        if token == own then mine = true end
      elseif tonumber(redis.call('ZSCORE', ${seenKey}, token) or 0)
          < now + (tonumber(string.match(token, '^[^:]+:[^:]+:(%d+)$')) or ttl) / 2 then
        redis.call('ZREM', ${queueKey}, token)
        redis.call('ZREM', ${seenKey}, token)
      else
        passed = passed + 1
      end
    end
  end
  if handed == 0 then return false end
  local nearing = redis.call('ZRANGE', ${queueKey}, limit - handed, limit - 1)
  if #nearing > 0 then
    local earliest = redis.call('ZRANGE', ${holders}, 0, 0, 'WITHSCORES')
    local change = math.max(0, tonumber(earliest[2]) - now)
    for _, token in ipairs(nearing) do wake(token, 'near ' .. change .. ' ' .. token) end
  end
  return mine
end
`;

/** Records `limit` for `ttl * 2` (never shortening what another process recorded: the same limit
 *  with a longer TTL) and sets `limit` to the smallest live one. */
const EFFECTIVE_LIMIT = (limitsKey: string, limitArg: string, ttlVar: string) => `
redis.call('ZREMRANGEBYSCORE', ${limitsKey}, '-inf', now)
if tonumber(redis.call('ZSCORE', ${limitsKey}, ${limitArg}) or 0) < now + ${ttlVar} * 2 then
  redis.call('ZADD', ${limitsKey}, now + ${ttlVar} * 2, ${limitArg})
end
local limit = tonumber(${limitArg})
for _, other in ipairs(redis.call('ZRANGE', ${limitsKey}, 0, -1)) do
  limit = math.min(limit, tonumber(other))
end
`;

/**
 * What the acquire and acquire-if-free scripts do first (same KEYS and ARGV[1..6]): the server's
 * time and `ttl`; expired leases removed and counted, their instances asked (a census) and the
 * settle period set when any may still live or the id's state was lost (`lost`: no `seq`, which
 * is then written again; the census is described at ACQUIRE_SCRIPT); the waiters that stopped asking dropped; `limit` the
 * smallest limit recorded; `expired` for the answer.
 */
const ACQUIRE_PREAMBLE = `${NOW}
local ttl = tonumber(ARGV[3])
local lost = redis.call('EXISTS', KEYS[4]) == 0
local gone_leases = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now)
local expired = #gone_leases
local asking = 0
if expired > 0 then
  redis.call('ZREM', KEYS[1], unpack(gone_leases))
  redis.call('INCRBY', KEYS[5], expired)
  local asked = {}
  for _, token in ipairs(gone_leases) do
    local instance = string.match(token, '^[^:]+')
    if not asked[instance] then
      asked[instance] = true
      asking = asking + redis.call('PUBLISH', ARGV[6] .. instance, 'census')
    end
  end
end
if redis.call('EXISTS', KEYS[7]) == 1 then
  if lost then asking = asking + redis.call('PUBLISH', ARGV[5], 'lost') end
  if asking > 0 then redis.call('INCRBY', KEYS[7], asking) end
else
  if lost then asking = asking + redis.call('PUBLISH', ARGV[5], 'lost') end
  if asking > 0 or (lost and ARGV[4] == '1') then
    redis.call('SET', KEYS[7], asking, 'PX', math.max(1, math.floor(ttl * 2 / 3)))
  end
end
-- (The loss is handled: its census asked. The id's state is written from now on, so a later loss
-- is seen as such, and a release or a census answer hands out slots again: RELEASE_SCRIPT.)
if lost then redis.call('INCR', KEYS[4]) end
${DROP_GONE('KEYS[2]', 'KEYS[3]')}
${EFFECTIVE_LIMIT('KEYS[6]', 'ARGV[2]', 'ttl')}
`;

/** KEYS: holders, queue, seen, seq, expired, limits, settle.
 *  ARGV: token, limit, ttlMs, known (1 when this process saw the id's state before), census
 *  channel, wake channel prefix, ahead (1: a failover's next attempt, ticketed before every
 *  waiter that did not ask for it, in ticket order among those that did).
 *  Returns { granted (0/1), leases expired by this call, the limit that applies, waitersBefore
 *  (queued: how many waiters are in line before this one, 0 = next; a position, unlike the
 *  `ahead` flag of ARGV[7]), ms until the next change no message announces (the earliest lease's
 *  expiry or the end of a settle period; -1: none), the server's time (ms) }. The free slots go to the first waiters in
 *  ticket order (FIFO across processes): this one when it is among them, the others announced on
 *  their channels. A token that already holds a slot (handed over by a release whose message it
 *  missed) is granted again at once.
 *
 *  Live leases may be missing: leases expired while their processes live (Redis frozen longer
 *  than the TTL, or a holder stalled), or the id's state lost (no `seq`: a restart without
 *  persistence, FLUSHALL). Then the script asks (a census): for expired leases, the budget
 *  instance of each on its own wake channel, where it listens while it lives (a crashed or exited
 *  process is not subscribed: PUBLISH answers 0 and it costs no wait); for lost state, every
 *  process that has held a lease of the id, on the census channel. When any may have lost a
 *  lease, or the state was lost and this process saw it before, nothing is granted until they
 *  re-registered their leases (each answers once) or for at most 2/3 of the TTL (two refresh
 *  periods). Leases that expire during that period have their instances asked too. The holders'
 *  key has no TTL, so expired leases are found as such after a long freeze too. */
export const ACQUIRE_SCRIPT = `${ACQUIRE_PREAMBLE}
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
  return {1, expired, limit, 0}
end
if not redis.call('ZSCORE', KEYS[2], ARGV[1]) then
  local ticket = redis.call('INCR', KEYS[4])
  if ARGV[7] == '1' then ticket = ticket - 1e15 end
  redis.call('ZADD', KEYS[2], string.format('%.0f', ticket), ARGV[1])
end
redis.call('ZADD', KEYS[3], now + ttl, ARGV[1])
${GRANT('KEYS[1]', 'KEYS[2]', 'KEYS[3]', 'ARGV[6]')}
if redis.call('EXISTS', KEYS[7]) == 0 and grant(limit - redis.call('ZCARD', KEYS[1]), ARGV[1], limit) then
  return {1, expired, limit, 0}
end
local change = -1
local earliest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if #earliest > 0 then change = math.max(0, tonumber(earliest[2]) - now) end
local settling = redis.call('PTTL', KEYS[7])
if settling > 0 and (change < 0 or settling < change) then change = settling end
-- (ZRANK: waitersBefore, the waiter's position in line.)
return {0, expired, limit, redis.call('ZRANK', KEYS[2], ARGV[1]), change, now}
`;

/** KEYS and ARGV[1..6]: as ACQUIRE_SCRIPT's (no `ahead`: this script never queues).
 *  A slot for the token only if one is free now and nobody waits: the free slots go to the
 *  waiters first (a slot freed by an expired lease at this very moment is the first waiter's),
 *  and only a slot still free after them, with nobody left in line, is taken. Never a ticket:
 *  a token refused leaves nothing behind. Nothing is granted during a settle period (live
 *  leases may be missing). Returns { granted (0/1), leases expired by this call, the limit that
 *  applies }. */
export const ACQUIRE_IF_FREE_SCRIPT = `${ACQUIRE_PREAMBLE}
${GRANT('KEYS[1]', 'KEYS[2]', 'KEYS[3]', 'ARGV[6]')}
if redis.call('EXISTS', KEYS[7]) == 1 then return {0, expired, limit} end
grant(limit - redis.call('ZCARD', KEYS[1]), '', limit)
if redis.call('ZCARD', KEYS[2]) > 0 or redis.call('ZCARD', KEYS[1]) >= limit then
  return {0, expired, limit}
end
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
return {1, expired, limit}
`;

/** KEYS: holders, queue, seen, limits, settle, seq. ARGV: token, wake channel prefix, limit, ttlMs.
 *  Frees a slot (or leaves the queue) and hands the free slots to the first waiters in line, each
 *  woken on its own instance's channel: one message per slot handed over, whatever the number of
 *  waiters or processes. Hands none during a settle period, nor when the id's state was lost (no
 *  `seq`): the leases missing then are still in flight, and only an acquire's census finds them.
 *  Returns 1 when the token held a slot. Idempotent: a release sent again (after a lost reply)
 *  changes nothing. */
export const RELEASE_SCRIPT = `${NOW}
local ttl = tonumber(ARGV[4])
local held = redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
local limit = tonumber(ARGV[3])
for _, other in ipairs(redis.call('ZRANGEBYSCORE', KEYS[4], now, '+inf')) do
  limit = math.min(limit, tonumber(other))
end
${DROP_GONE('KEYS[2]', 'KEYS[3]')}
${GRANT('KEYS[1]', 'KEYS[2]', 'KEYS[3]', 'ARGV[2]')}
if redis.call('EXISTS', KEYS[5]) == 0 and redis.call('EXISTS', KEYS[6]) == 1 then
  grant(limit - redis.call('ZCARD', KEYS[1]), '', limit)
end
return held
`;

/** KEYS: holders, limits, settle, queue, seen, seq. ARGV: ttlMs, limit, census (1 when answering a
 *  census), wake channel prefix, tokens….
 *  Extends the leases this process holds and re-takes any that Redis lost (expired while the
 *  process stalled, or wiped by a restart or FLUSHALL): a call in flight stays counted until it
 *  ends. Answering a census counts down the settle period; the last answer ends it and hands the
 *  free slots to the waiters in line (none when the id's state was lost meanwhile, no `seq`: as a
 *  release, RELEASE_SCRIPT). Returns { how many were re-taken, 1 when that put the key's
 *  live leases past its limit (its slots were granted meanwhile: the holder stalled longer than
 *  the TTL and the settle period, or ran calls on the fallback) }: they stay counted all the same,
 *  as their calls are in flight, so nothing is granted until the key is under its limit again. */
export const REFRESH_SCRIPT = `${NOW}
local ttl = tonumber(ARGV[1])
local retaken = 0
local past = 0
for i = 5, #ARGV do
  if redis.call('ZADD', KEYS[1], now + ttl, ARGV[i]) == 1 then retaken = retaken + 1 end
end
if #ARGV >= 5 then
  -- Its limit stays recorded while it holds leases (a census answer holding none records none).
  ${EFFECTIVE_LIMIT('KEYS[2]', 'ARGV[2]', 'ttl')}
  if retaken > 0 and #redis.call('ZRANGEBYSCORE', KEYS[1], now, '+inf') > limit then past = 1 end
end
if ARGV[3] == '1' and redis.call('DECR', KEYS[3]) <= 0 then
  redis.call('DEL', KEYS[3])
  local live = redis.call('ZRANGEBYSCORE', KEYS[2], now, '+inf')
  if #live > 0 and redis.call('EXISTS', KEYS[6]) == 1 then
    local smallest = tonumber(live[1])
    for _, other in ipairs(live) do smallest = math.min(smallest, tonumber(other)) end
    ${DROP_GONE('KEYS[4]', 'KEYS[5]')}
    ${GRANT('KEYS[1]', 'KEYS[4]', 'KEYS[5]', 'ARGV[4]')}
    grant(smallest - redis.call('ZCARD', KEYS[1]), '', smallest)
  end
end
return {retaken, past}
`;

/** The Redis keys and channels of one budget id (documented above); the id is already a hash. */
export interface LeaseKeys {
  holders: string;
  queue: string;
  seen: string;
  seq: string;
  expired: string;
  limits: string;
  settle: string;
  /** Pub/sub: the prefix of each budget instance's wake channel (`…:wake:<instance>`). */
  wake: string;
  /** Pub/sub: an acquire asking the holders to re-take their leases. */
  census: string;
}

export function leaseKeys(prefix: string, id: string): LeaseKeys {
  const base = `{${prefix}:${id}}`;
  return {
    holders: `${base}:holders`,
    queue: `${base}:queue`,
    seen: `${base}:seen`,
    seq: `${base}:seq`,
    expired: `${base}:expired`,
    limits: `${base}:limits`,
    settle: `${base}:settle`,
    wake: `${base}:wake:`,
    census: `${base}:census`,
  };
}
