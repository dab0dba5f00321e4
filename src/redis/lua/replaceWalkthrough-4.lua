--[[
  Replaces a walkthrough record if its stored version is still the one the caller read: the
  optimistic-concurrency check, the write and the audit log in one round trip, with no read
  before it. Refreshes every TTL (activity).

  Input:
    KEYS[1] record key       (hash: v = version, data = record JSON)
    KEYS[2] active index key (sorted set: id -> last activity, ms)
    KEYS[3] thread key       (string: id of the thread's latest walkthrough)
    KEYS[4] audit log key    (list: earlier audit entries, JSON each, oldest first)

    ARGV[1] expected (stored) version
    ARGV[2] new version
    ARGV[3] new record JSON
    ARGV[4] TTL, seconds
    ARGV[5] walkthrough id
    ARGV[6] last activity, ms since the epoch
    ARGV[7] "1" when the walkthrough stays active, "0" when it is done or abandoned
    ARGV[8] "1" when it lives in a thread
    ARGV[9...] audit entries that leave the record for the audit log, oldest first

  Output:
    { new version }            written
    { -1 }                     no such record, or it expired (ScriptCode.RecordMissing)
    { -3, stored record JSON } someone wrote first (ScriptCode.VersionMismatch)
]]
local stored = redis.call("HGET", KEYS[1], "v")
if not stored then
  return { -1 }
end
if stored ~= ARGV[1] then
  return { -3, redis.call("HGET", KEYS[1], "data") }
end
redis.call("HSET", KEYS[1], "v", ARGV[2], "data", ARGV[3])
redis.call("EXPIRE", KEYS[1], ARGV[4])
if #ARGV > 8 then
  redis.call("RPUSH", KEYS[4], unpack(ARGV, 9))
end
-- A no-op while the log is empty: it lives exactly as long as its record.
redis.call("EXPIRE", KEYS[4], ARGV[4])
if ARGV[7] == "1" then
  redis.call("ZADD", KEYS[2], ARGV[6], ARGV[5])
  redis.call("EXPIRE", KEYS[2], ARGV[4])
else
  redis.call("ZREM", KEYS[2], ARGV[5])
end
-- Entries whose records have expired (no activity for a whole TTL) leave the index too.
redis.call("ZREMRANGEBYSCORE", KEYS[2], "-inf", tonumber(ARGV[6]) - tonumber(ARGV[4]) * 1000)
-- The thread points at its most recently active walkthrough.
if ARGV[8] == "1" then
  redis.call("SET", KEYS[3], ARGV[5], "EX", ARGV[4])
end
return { tonumber(ARGV[2]) }
