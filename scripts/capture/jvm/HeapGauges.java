import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;

/**
 * Samples the two heap gauges Spark's JvmSource reports (Dropwizard's MemoryUsageGaugeSet:
 * heap.used = getHeapMemoryUsage().getUsed(), heap.usage = used / getMax()), which AWS Glue sends to
 * CloudWatch as glue.driver.jvm.heap.used and glue.driver.jvm.heap.usage, while a workload runs.
 * "leak" keeps `keepKb` KiB every 10 ms until java.lang.OutOfMemoryError; "steady" keeps nothing.
 * Prints one line per sample: epoch seconds, heap used (bytes), heap max (bytes).
 * Usage: HeapGauges leak|steady <keepKb> <everyMs> <samples>
 */
public class HeapGauges {
  static final List<byte[]> kept = new ArrayList<>();
  static volatile long sink;

  public static void main(String[] a) throws Exception {
    boolean leak = a[0].equals("leak");
    int keepKb = Integer.parseInt(a[1]);
    long everyMs = Long.parseLong(a[2]);
    int samples = Integer.parseInt(a[3]);
    Thread work = new Thread(() -> {
      try {
        while (true) {
          byte[] b = new byte[keepKb * 1024];
          if (leak) kept.add(b); else sink += b.length;
          Thread.sleep(10);
        }
      } catch (OutOfMemoryError e) {
        kept.clear();
        System.out.println("# " + e);
      } catch (InterruptedException e) {
        return;
      }
    });
    work.setDaemon(true);
    work.start();
    MemoryMXBean mx = ManagementFactory.getMemoryMXBean();
    for (int i = 0; i < samples && work.isAlive(); i++) {
      MemoryUsage heap = mx.getHeapMemoryUsage();
      System.out.println(System.currentTimeMillis() / 1000 + " " + heap.getUsed() + " " + heap.getMax());
      Thread.sleep(everyMs);
    }
  }
}
