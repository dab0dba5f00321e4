-- Moves the retries whose time has come back onto the stream, in one step.
-- KEYS[1]  the retries (sorted set by time)
-- KEYS[2]  the alert stream
-- ARGV[1]  now (ms since the epoch)
-- ARGV[2]  at most this many
-- Returns  how many were moved.
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, member in ipairs(due) do
  local item = cjson.decode(member)
  redis.call('XADD', KEYS[2], '*', 'alert', item.alert, 'attempts', tostring(item.attempts))
  redis.call('ZREM', KEYS[1], member)
end
return #due
