import tracemalloc

# Work that frees what it allocates: nothing should pile up between the snapshots.
def process(n):
    total = 0
    for i in range(n):
        total += len(("element-%d" % i) * 10)
    return total


tracemalloc.start()
process(1000)
before = tracemalloc.take_snapshot()
process(50000)
after = tracemalloc.take_snapshot()
for stat in after.compare_to(before, "lineno")[:10]:
    print(stat)
