-- Removes a delivery the consumer group handed out, once it is done.
-- KEYS[1]  the alert stream
-- ARGV[1]  the consumer group
-- ARGV[2]  the entry id
-- Returns  1 when it was still pending, 0 when another worker had finished it already.
local acked = redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])
redis.call('XDEL', KEYS[1], ARGV[2])
return acked
