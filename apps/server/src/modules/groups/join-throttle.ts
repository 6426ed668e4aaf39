import type { Redis } from 'ioredis';

/**
 * Wrong join codes are counted per account and per client address (issue 23): after 10 in 10 minutes
 * either counter refuses every join attempt, right code or not, until its window ends. A right code
 * costs nothing. Counters are fixed windows starting at the first wrong code.
 *
 * Each attempt takes a slot from both counters before the code is looked up and gives it back unless
 * the code was wrong, so even simultaneous attempts cannot test more than the limit. Like the other
 * rate limits the counters live in Redis when REDIS_URL is set (shared by every instance), else in
 * this process; an unreachable Redis lets attempts through rather than refusing everyone.
 */
export const JOIN_THROTTLE = {
  windowMs: 10 * 60 * 1000,
  wrongCodesPerAccount: 10,
  wrongCodesPerAddress: 10,
} as const;

export interface ThrottleKey {
  key: string;
  limit: number;
}

export interface JoinThrottle {
  /** Takes a slot on every key: 0 when allowed, else the milliseconds until the fullest one frees. */
  take(keys: readonly ThrottleKey[]): Promise<number>;
  /** Gives back the slots of an attempt that was not a wrong code. */
  refund(keys: readonly ThrottleKey[]): Promise<void>;
}

export function joinThrottleKeys(userId: string, address: string): ThrottleKey[] {
  return [
    { key: `user:${userId}`, limit: JOIN_THROTTLE.wrongCodesPerAccount },
    { key: `ip:${address}`, limit: JOIN_THROTTLE.wrongCodesPerAddress },
  ];
}

/** Counters in this process (one instance, or tests). Expired windows are dropped as they are met. */
export function memoryJoinThrottle(windowMs: number = JOIN_THROTTLE.windowMs): JoinThrottle {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const live = (key: string, now: number) => {
    const entry = windows.get(key);
    if (entry && entry.resetAt <= now) windows.delete(key);
    return entry && entry.resetAt > now ? entry : undefined;
  };
  const sweep = (now: number) => {
    // Bounded memory: an address-hopping attacker leaves one entry per address for one window.
    if (windows.size < 10_000) return;
    for (const [key, entry] of windows) if (entry.resetAt <= now) windows.delete(key);
  };
  return {
    async take(keys) {
      const now = Date.now();
      sweep(now);
      let wait = 0;
      const entries = keys.map(({ key, limit }) => {
        let entry = live(key, now);
        if (!entry) windows.set(key, (entry = { count: 0, resetAt: now + windowMs }));
        entry.count += 1;
        if (entry.count > limit) wait = Math.max(wait, entry.resetAt - now);
        return entry;
      });
      if (wait > 0) for (const entry of entries) entry.count -= 1;
      return wait;
    },
    async refund(keys) {
      const now = Date.now();
      for (const { key } of keys) {
        const entry = live(key, now);
        if (entry && entry.count > 0) entry.count -= 1;
      }
    },
  };
}

// One round trip each, atomic across both keys. KEYS: the counters; ARGV: the window, then each limit.
const TAKE = `
local wait = 0
for i, key in ipairs(KEYS) do
  local n = redis.call('INCR', key)
  if n == 1 then redis.call('PEXPIRE', key, ARGV[1]) end
  if n > tonumber(ARGV[i + 1]) then
    local ttl = redis.call('PTTL', key)
    if ttl < 0 then ttl = tonumber(ARGV[1]) end
    if ttl > wait then wait = ttl end
  end
end
if wait > 0 then
  for _, key in ipairs(KEYS) do redis.call('DECR', key) end
end
return wait`;
// A key that expired meanwhile is left alone: DECR would recreate it without an expiry.
const REFUND = `
for _, key in ipairs(KEYS) do
  if redis.call('EXISTS', key) == 1 and tonumber(redis.call('GET', key)) > 0 then redis.call('DECR', key) end
end
return 0`;

/** Counters in Redis, shared by every instance; fails open like the other rate limits. */
export function redisJoinThrottle(
  redis: Redis,
  opts: { windowMs?: number; nameSpace?: string } = {},
): JoinThrottle {
  const windowMs = opts.windowMs ?? JOIN_THROTTLE.windowMs;
  const nameSpace = opts.nameSpace ?? 'cats-join-';
  const names = (keys: readonly ThrottleKey[]) => keys.map((k) => `${nameSpace}${k.key}`);
  return {
    async take(keys) {
      try {
        const wait = await redis.eval(
          TAKE,
          keys.length,
          ...names(keys),
          windowMs,
          ...keys.map((k) => k.limit),
        );
        return Number(wait) || 0;
      } catch {
        return 0;
      }
    },
    async refund(keys) {
      try {
        await redis.eval(REFUND, keys.length, ...names(keys));
      } catch {
        // Nothing to give back to an unreachable Redis; its counter expires with its window.
      }
    },
  };
}
