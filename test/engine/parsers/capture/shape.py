import sys, time
# Memory shapes over 12 one-second steps: "spike" grows to ~200 MiB then frees it, "plateau" grows for
# four steps then holds what it has.
shape = sys.argv[1]
kept = []
for step in range(12):
    if shape == "spike":
        if 3 <= step <= 5:
            kept.append(bytearray(64 * 1024 * 1024))
        elif step == 6:
            kept.clear()
    elif shape == "plateau" and step < 4:
        kept.append(bytearray(48 * 1024 * 1024))
    time.sleep(1)
