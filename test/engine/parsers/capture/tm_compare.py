import tracemalloc

# A cache that is never emptied, as in a DoFn that keeps every element it saw.
CACHE = []


def process(n):
    for i in range(n):
        CACHE.append(("element-%d" % i) * 10)


tracemalloc.start()
process(1000)
before = tracemalloc.take_snapshot()
process(50000)
after = tracemalloc.take_snapshot()
for stat in after.compare_to(before, "lineno")[:20]:
    print(stat)
