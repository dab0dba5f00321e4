--[[
  Renews a running fetch's lease (takeFetchSlot-3.lua), while its process still runs it.

  Input:
    KEYS[1] sorted set: every running fetch's lease id, scored by when its lease lapses (ms)
    KEYS[2] sorted set: this person's running leases, the same way
    ARGV[1] lease id
    ARGV[2] lease length, ms

  Output: 1 renewed; 0 the lease had lapsed already (its place may be someone else's now).
]]
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local lease = tonumber(ARGV[2])
local held = redis.call('ZSCORE', KEYS[2], ARGV[1])
if not held or tonumber(held) <= now then
  return 0
end
redis.call('ZADD', KEYS[1], 'XX', now + lease, ARGV[1])
redis.call('PEXPIRE', KEYS[1], lease)
redis.call('ZADD', KEYS[2], 'XX', now + lease, ARGV[1])
redis.call('PEXPIRE', KEYS[2], lease)
return 1
