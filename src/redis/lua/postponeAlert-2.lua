-- Takes a delivery off the stream and schedules it to be handed out again later (a retry with
-- backoff, or a wait for another worker's claim on its incident), in one step.
-- KEYS[1]  the alert stream
-- KEYS[2]  the retries (sorted set by time, RedisKeys.alertRetries)
-- ARGV[1]  the consumer group
-- ARGV[2]  the entry id
-- ARGV[3]  when to hand it out again (ms since the epoch)
-- ARGV[4]  the member: JSON {id, alert, attempts}
-- Returns  1 when scheduled, 0 when the entry was no longer pending (another worker had it).
local acked = redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])
if acked == 0 then
  return 0
end
redis.call('XDEL', KEYS[1], ARGV[2])
redis.call('ZADD', KEYS[2], tonumber(ARGV[3]), ARGV[4])
return 1
