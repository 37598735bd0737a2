/**
 * The Redis store's one server-side script: a batch of puts and deletes applied together, each op optionally
 * conditional on the revision it was read at (compare-and-set), the whole batch optionally conditional on a
 * lease still being held with a given fence. Scripts run atomically on the server, so no WATCH (which is
 * per-connection and would need a connection per concurrent update) and no cluster-only commands.
 *
 * KEYS: [namespace set, guard lease entry (or any key when unguarded), then per op: entry hash, namespace index]
 * ARGV: [now, guard owner ('' = none), guard fence, op count, new revision,
 *        then per op 7 values: kind, member, expected revision ('*' any, '' absent), json, expiresAt, pttl, ns]
 * Returns 'ok', 'conflict' (an expected revision did not match; nothing applied) or 'fenced'.
 */
export const WRITE_SCRIPT = `
local now = tonumber(ARGV[1])
if ARGV[2] ~= '' then
  local raw = redis.call('HGET', KEYS[2], 'v')
  if not raw then return 'fenced' end
  local lease = cjson.decode(raw)
  if lease.owner ~= ARGV[2] or tonumber(lease.fence) ~= tonumber(ARGV[3]) or tonumber(lease.expiresAt) <= now then
    return 'fenced'
  end
end
local n = tonumber(ARGV[4])
local rev = ARGV[5]
for j = 1, n do
  local b = 5 + (j - 1) * 7
  local want = ARGV[b + 3]
  if want ~= '*' then
    local have = redis.call('HGET', KEYS[1 + 2 * j], 'r')
    if not have then have = '' end
    if have ~= want then return 'conflict' end
  end
end
for j = 1, n do
  local b = 5 + (j - 1) * 7
  local ek = KEYS[1 + 2 * j]
  local ik = KEYS[2 + 2 * j]
  redis.call('DEL', ek)
  if ARGV[b + 1] == 'del' then
    redis.call('ZREM', ik, ARGV[b + 2])
  else
    redis.call('HSET', ek, 'v', ARGV[b + 4], 'r', rev)
    if ARGV[b + 5] ~= '' then
      redis.call('HSET', ek, 'e', ARGV[b + 5])
      redis.call('PEXPIRE', ek, ARGV[b + 6])
    end
    redis.call('ZADD', ik, 0, ARGV[b + 2])
    redis.call('SADD', KEYS[1], ARGV[b + 7])
  end
end
return 'ok'
`;
