import tracemalloc

tracemalloc.start()
data = [bytes(1000) for _ in range(20000)]
names = {str(i): i for i in range(20000)}
snapshot = tracemalloc.take_snapshot()
for stat in snapshot.statistics("lineno")[:10]:
    print(stat)
