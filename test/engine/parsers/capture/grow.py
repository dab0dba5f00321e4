import sys, time
# Keeps 8 MiB more every second, so its resident memory climbs steadily.
kept = []
for _ in range(int(sys.argv[1])):
    kept.append(bytearray(8 * 1024 * 1024))
    time.sleep(1)
