"""A Python process whose resident memory follows a chosen shape, for capturing memory samples.

usage: python3 leak.py SHAPE RATE_MIB_S SECONDS [START_MIB] [STEP_AT_S] [STEP_MIB]
  climb:  keeps RATE MiB more every second, from START MiB held at start-up
  step:   holds START MiB, takes STEP MiB at once after STEP_AT seconds, then holds it all (a cache fill)
  idle:   holds START MiB and nothing more
Memory is taken in bytearrays, which CPython fills with zeros, so every page is touched and resident.
"""
import sys
import time

shape, rate, seconds = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
start = int(sys.argv[4]) if len(sys.argv) > 4 else 0
step_at = float(sys.argv[5]) if len(sys.argv) > 5 else 0.0
step_mib = int(sys.argv[6]) if len(sys.argv) > 6 else 0
MiB = 1024 * 1024
TICK = 0.1  # ten allocations a second, so the climb is smooth at any sampling interval

kept = [bytearray(start * MiB)] if start else []
print("ready", flush=True)
began = time.monotonic()
stepped = False
while (now := time.monotonic() - began) < seconds:
    if shape == "climb":
        kept.append(bytearray(int(rate * MiB * TICK)))
    elif shape == "step" and not stepped and now >= step_at:
        kept.append(bytearray(step_mib * MiB))
        stepped = True
    time.sleep(TICK)
