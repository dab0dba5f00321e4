--[[
  Takes a place for one fetch from the connectors under the caps (MEMDOCTOR_FETCHES_*), counted
  across every replica on this Redis: the expired leases dropped, the three caps read and the place
  taken in one step, so two replicas never both take the last place. Each running fetch holds a
  lease its process renews (renewFetchSlot-2.lua) and gives back (releaseFetchSlot-2.lua); a process
  that dies stops renewing, and its place comes back when the lease lapses. Time is Redis's own
  (TIME), so the replicas' clocks need not agree.

  Input:
    KEYS[1] sorted set: every running fetch's lease id, scored by when its lease lapses (ms)
    KEYS[2] sorted set: this person's running leases, the same way
    KEYS[3] sorted set: this person's fetch starts, lease id scored by when it started (ms)

    ARGV[1] lease id (unique per fetch)
    ARGV[2] lease length, ms
    ARGV[3] fetches one person may have running
    ARGV[4] fetches one person may start in a window
    ARGV[5] fetches running in all
    ARGV[6] the window, ms

  Output:
    { 1 }                          taken
    { -6, running }                the person has their most running (ScriptCode.FetchPerUser)
    { -7, starts, ms until one leaves the window }  the person started their most in the window
                                                    (ScriptCode.FetchPerWindow)
    { -8, running }                everyone together has the most running (ScriptCode.FetchTotal)
]]
local id = ARGV[1]
local lease = tonumber(ARGV[2])
local perUser = tonumber(ARGV[3])
local perWindow = tonumber(ARGV[4])
local total = tonumber(ARGV[5])
local window = tonumber(ARGV[6])

local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - window)

local mine = redis.call('ZCARD', KEYS[2])
if mine >= perUser then
  return { -6, mine }
end
local starts = redis.call('ZCARD', KEYS[3])
if starts >= perWindow then
  local oldest = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
  return { -7, starts, tonumber(oldest[2]) + window - now }
end
local all = redis.call('ZCARD', KEYS[1])
if all >= total then
  return { -8, all }
end

-- Every lease in a set lapses within `lease` of now, so the set may go when the newest one does.
local lapses = now + lease
redis.call('ZADD', KEYS[1], lapses, id)
redis.call('PEXPIRE', KEYS[1], lease)
redis.call('ZADD', KEYS[2], lapses, id)
redis.call('PEXPIRE', KEYS[2], lease)
redis.call('ZADD', KEYS[3], now, id)
redis.call('PEXPIRE', KEYS[3], window)
return { 1 }
