-- Gives up on a delivery: off the stream and onto the dead letters (newest first, at most ARGV[4]).
-- KEYS[1]  the alert stream
-- KEYS[2]  the dead letters (list)
-- ARGV[1]  the consumer group
-- ARGV[2]  the entry id
-- ARGV[3]  the dead letter as JSON
-- ARGV[4]  how many dead letters are kept
-- Returns  1 when given up on, 0 when the entry was no longer pending.
local acked = redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])
if acked == 0 then
  return 0
end
redis.call('XDEL', KEYS[1], ARGV[2])
redis.call('LPUSH', KEYS[2], ARGV[3])
redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[4]) - 1)
return 1
