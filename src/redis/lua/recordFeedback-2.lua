--[[
  Records one walkthrough's answer to "Did this fix it?" exactly once: a second answer from the
  same walkthrough moves its count instead of adding one.

  Input:
    KEYS[1] counts key   (hash: "playbook\tcause\tmetric" -> count)
    KEYS[2] answers key  (hash: walkthrough id -> the counts field its answer went to)

    ARGV[1] walkthrough id
    ARGV[2] the counts field of this answer
    ARGV[3] TTL, seconds

  Output:
     1  recorded (or moved from an earlier answer)
     0  the same answer was already recorded
]]
local before = redis.call("HGET", KEYS[2], ARGV[1])
if before == ARGV[2] then
  return 0
end
if before then
  redis.call("HINCRBY", KEYS[1], before, -1)
end
redis.call("HINCRBY", KEYS[1], ARGV[2], 1)
redis.call("HSET", KEYS[2], ARGV[1], ARGV[2])
redis.call("EXPIRE", KEYS[1], ARGV[3])
redis.call("EXPIRE", KEYS[2], ARGV[3])
return 1
