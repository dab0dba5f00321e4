-- Accepts one alert delivery (issue 38): a delivery seen before is a duplicate; otherwise the alert
-- joins the stream and its incident's count of deliveries, all or nothing.
-- KEYS[1]  the delivery's mark (RedisKeys.alertDelivery)
-- KEYS[2]  the alert stream (RedisKeys.alertStream)
-- KEYS[3]  the incident (RedisKeys.incident)
-- ARGV[1]  the RoutedAlert as JSON
-- ARGV[2]  how long the delivery is remembered, in seconds
-- ARGV[3]  how long the incident is kept after its last delivery, in seconds
-- Returns  1 when queued, 0 for a duplicate delivery.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('XADD', KEYS[2], '*', 'alert', ARGV[1], 'attempts', '0')
redis.call('SET', KEYS[1], '1', 'EX', tonumber(ARGV[2]))
redis.call('HINCRBY', KEYS[3], 'deliveries', 1)
redis.call('EXPIRE', KEYS[3], tonumber(ARGV[3]))
return 1
