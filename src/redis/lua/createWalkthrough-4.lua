--[[
  Creates a walkthrough record unless one with the same id exists.

  Input:
    KEYS[1] record key       (hash: v = version, data = record JSON)
    KEYS[2] active index key (sorted set: id -> last activity, ms)
    KEYS[3] thread key       (string: id of the thread's latest walkthrough)
    KEYS[4] audit log key    (list: earlier audit entries, JSON each, oldest first)

    ARGV[1] record JSON
    ARGV[2] version
    ARGV[3] TTL, seconds
    ARGV[4] walkthrough id
    ARGV[5] last activity, ms since the epoch
    ARGV[6] "1" when the walkthrough is listed in the active index (active, and not held back)
    ARGV[7] "1" when it lives in a thread
    ARGV[8...] audit entries that are not in the record (usually none)

  Output:
     1  created
    -2  a record with this id exists (ScriptCode.RecordExists)
]]
if redis.call("EXISTS", KEYS[1]) == 1 then
  return -2
end
redis.call("HSET", KEYS[1], "v", ARGV[2], "data", ARGV[1])
redis.call("EXPIRE", KEYS[1], ARGV[3])
if #ARGV > 7 then
  redis.call("RPUSH", KEYS[4], unpack(ARGV, 8))
  redis.call("EXPIRE", KEYS[4], ARGV[3])
end
if ARGV[6] == "1" then
  redis.call("ZADD", KEYS[2], ARGV[5], ARGV[4])
  redis.call("EXPIRE", KEYS[2], ARGV[3])
end
if ARGV[7] == "1" then
  redis.call("SET", KEYS[3], ARGV[4], "EX", ARGV[3])
end
return 1
