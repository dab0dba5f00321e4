import java.util.ArrayList;
import java.util.List;

/**
 * A busy heap with no leak: many threads ("batch-<n>") each read a batch of records into a local
 * list, work on it and drop it; nothing outlives its batch. The in-flight batches are the live set,
 * spread over the threads so that none holds more than a few percent of the heap. The capture script
 * dumps mid-run with jcmd GC.heap_dump -all, so the batches already dropped are in the dump too
 * (unreachable), as they are in any heap between two collections.
 * Usage: PeakNoLeak <threads> <recordsPerBatch> <recordBytes>
 */
public class PeakNoLeak {
  static volatile long sink;

  public static void main(String[] a) throws InterruptedException {
    int threads = Integer.parseInt(a[0]);
    int records = Integer.parseInt(a[1]);
    int recordBytes = Integer.parseInt(a[2]);
    for (int t = 0; t < threads; t++) {
      Thread batch = new Thread(() -> churn(records, recordBytes), "batch-" + t);
      batch.setDaemon(true);
      batch.start();
    }
    Thread.sleep(3000);
    System.out.println("ready");
    Thread.sleep(Long.MAX_VALUE);
  }

  static void churn(int records, int recordBytes) {
    for (long round = 0; ; round++) {
      List<long[]> batch = new ArrayList<>();
      int size = 1 + (int) (round % records);
      for (int i = 0; i < size; i++) batch.add(new long[recordBytes / 8]);
      for (long[] record : batch) sink += record.length;
      if (round % 64 == 0) Thread.yield();
    }
  }
}
