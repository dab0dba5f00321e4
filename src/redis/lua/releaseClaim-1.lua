-- Lets a claim go only if its owner still holds it (it may have expired and been taken by another).
-- KEYS[1]  the claim
-- ARGV[1]  the owner
-- Returns  1 when released, 0 otherwise.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
