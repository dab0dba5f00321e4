/**
 * A busy heap with no leak: four threads ("batch-<n>") each allocate short-lived arrays of several
 * kinds (long[], Object[] of boxed values, String) and drop them at once; nothing is kept between
 * rounds. The capture script dumps mid-run with jcmd GC.heap_dump -all, so the garbage is in the dump
 * too (unreachable) and the live part has no dominant holder.
 * Usage: PeakNoLeak <threads>
 */
public class PeakNoLeak {
  static volatile long sink;

  public static void main(String[] a) throws InterruptedException {
    int threads = Integer.parseInt(a[0]);
    for (int t = 0; t < threads; t++) {
      Thread batch = new Thread(PeakNoLeak::churn, "batch-" + t);
      batch.setDaemon(true);
      batch.start();
    }
    Thread.sleep(2000);
    System.out.println("ready");
    Thread.sleep(Long.MAX_VALUE);
  }

  static void churn() {
    for (long round = 0; ; round++) {
      long[] numbers = new long[1 + (int) (round % 4096)];
      Object[] boxed = new Object[64];
      for (int i = 0; i < boxed.length; i++) boxed[i] = Long.valueOf(round * 64 + i);
      String text = "round " + round;
      sink += numbers.length + boxed.length + text.length();
      if (round % 10_000 == 0) Thread.yield();
    }
  }
}
