-- Counts one model request against a workspace's fixed rate window.
-- KEYS[1]  counter key for this workspace and window (RedisKeys.modelRequests)
-- ARGV[1]  window length in seconds (the counter's TTL, set when the window opens)
-- Returns  the number of requests in this window, this one included.
local count = redis.call('INCR', KEYS[1])
if count == 1 then
  redis.call('EXPIRE', KEYS[1], tonumber(ARGV[1]))
end
return count
