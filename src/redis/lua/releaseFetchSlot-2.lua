--[[
  Gives back a finished fetch's place (takeFetchSlot-3.lua): its lease leaves both running sets at
  once. Its start stays counted in the person's window.

  Input:
    KEYS[1] sorted set: every running fetch's lease id
    KEYS[2] sorted set: this person's running leases
    ARGV[1] lease id

  Output: the number of sets it left (0 when the lease had lapsed and was dropped already).
]]
return redis.call('ZREM', KEYS[1], ARGV[1]) + redis.call('ZREM', KEYS[2], ARGV[1])
