--[[
  Adds one input's facts to a case (a Slack thread's or a console session's), or records the input
  as left out, if the case is still at the version the caller read: the version check, the limits
  and the write in one step, so two uploads at once give exactly one change each, in order, and a
  refused change writes nothing. Refreshes the TTL.

  Input:
    KEYS[1] case key (hash: v version, created, updated, answer (message ts), engine, n inputs,
            bytes held, in:<1..n> input JSON, left (left-out count), out:<1..> left-out JSON)

    ARGV[1]  expected version ("0": no case yet)
    ARGV[2]  input JSON ("": nothing to add, record ARGV[7] as left out)
    ARGV[3]  input bytes
    ARGV[4]  most inputs
    ARGV[5]  most bytes
    ARGV[6]  TTL, seconds
    ARGV[7]  left-out JSON when the inputs limit refuses it (or the given left-out, see ARGV[2])
    ARGV[8]  left-out JSON when the bytes limit refuses it
    ARGV[9]  answer message ts ("": keep the stored one)
    ARGV[10] engine hint ("": none; only a new case takes it)
    ARGV[11] now, ISO 8601
    ARGV[12] most left-out entries kept (more are counted)

  Output:
    { new version, 1 }  added
    { new version, 0 }  recorded as left out, as the caller asked
    { -3 }              the case changed since it was read (ScriptCode.VersionMismatch)
    { -4, new version } left out: the case holds its most inputs (ScriptCode.CaseInputsFull)
    { -5, new version } left out: the input would pass the case's bytes (ScriptCode.CaseBytesFull)
]]
local stored = redis.call("HGET", KEYS[1], "v") or "0"
if stored ~= ARGV[1] then
  return { -3 }
end
local version = tonumber(stored) + 1
if stored == "0" then
  redis.call("HSET", KEYS[1], "created", ARGV[11], "n", 0, "bytes", 0, "left", 0)
  if ARGV[10] ~= "" then
    redis.call("HSET", KEYS[1], "engine", ARGV[10])
  end
end
local n = tonumber(redis.call("HGET", KEYS[1], "n"))
local bytes = tonumber(redis.call("HGET", KEYS[1], "bytes"))
local code = 1
local left = nil
if ARGV[2] == "" then
  code = 0
  left = ARGV[7]
elseif n >= tonumber(ARGV[4]) then
  code = -4
  left = ARGV[7]
elseif bytes + tonumber(ARGV[3]) > tonumber(ARGV[5]) then
  code = -5
  left = ARGV[8]
end
if left then
  local count = redis.call("HINCRBY", KEYS[1], "left", 1)
  if count <= tonumber(ARGV[12]) then
    redis.call("HSET", KEYS[1], "out:" .. count, left)
  end
else
  redis.call("HSET", KEYS[1], "in:" .. (n + 1), ARGV[2], "n", n + 1, "bytes", bytes + tonumber(ARGV[3]))
end
if ARGV[9] ~= "" then
  redis.call("HSET", KEYS[1], "answer", ARGV[9])
end
redis.call("HSET", KEYS[1], "v", version, "updated", ARGV[11])
redis.call("EXPIRE", KEYS[1], ARGV[6])
if code < 0 then
  return { code, version }
end
return { version, code }
