"""A DoFn-shaped Python process that leaks the way Beam pipelines often do: a module-level cache
that every element adds to and nothing evicts (a lookup memoised per element id, never bounded).

usage: python3 leaky_dofn.py OUTDIR ELEMENTS_PER_S [SNAPSHOT_AFTER_S]
Runs bundles of elements through EnrichFn.process until the process is killed. tracemalloc traces
from the start; SNAPSHOT_AFTER_S seconds after a first snapshot (taken after the first bundle) it
writes the second snapshot's comparison to the first, the ten largest growths by line, to
OUTDIR/tracemalloc-<pid>.txt (each line as print(stat) prints it).
"""
import os
import sys
import time
import tracemalloc

_ENRICHED = {}  # element id -> enrichment: the cache nothing evicts


class EnrichFn:
    """process() as a Beam DoFn's: one element in, one enriched element out."""

    def process(self, element):
        key, payload = element
        if key not in _ENRICHED:
            _ENRICHED[key] = payload.upper() * 4
        yield key, len(_ENRICHED[key])


def elements(start, count):
    for i in range(start, start + count):
        yield i, f"element-{i:012d}-" + "x" * 1000


def main():
    out, rate = sys.argv[1], int(sys.argv[2])
    snapshot_after = float(sys.argv[3]) if len(sys.argv) > 3 else 10.0
    tracemalloc.start()
    fn, done, bundle = EnrichFn(), 0, max(1, rate // 10)
    first = None
    began = time.monotonic()
    print("ready", flush=True)
    while True:
        for element in elements(done, bundle):
            for _ in fn.process(element):
                pass
        done += bundle
        if first is None:
            first = tracemalloc.take_snapshot()
            first_at = time.monotonic()
        elif first_at and time.monotonic() - first_at >= snapshot_after:
            stats = tracemalloc.take_snapshot().compare_to(first, "lineno")
            with open(os.path.join(out, f"tracemalloc-{os.getpid()}.txt"), "w") as f:
                for stat in stats[:10]:
                    print(stat, file=f)
            print("snapshot", flush=True)
            first_at = 0.0
        time.sleep(max(0.0, began + done / rate - time.monotonic()))


main()
