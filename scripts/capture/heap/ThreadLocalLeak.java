import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A ThreadLocal that is set and never removed, in long-lived pooled threads ("pool-worker-<n>"):
 * each task appends its scratch buffer to the thread's ThreadLocal list, so the buffers live as long
 * as the threads. The threads then park; the capture script dumps the heap with jcmd GC.heap_dump.
 * Usage: ThreadLocalLeak <threads> <buffersPerThread> <bufferBytes>
 */
public class ThreadLocalLeak {
  static final ThreadLocal<List<byte[]>> SCRATCH = ThreadLocal.withInitial(ArrayList::new);

  public static void main(String[] a) throws InterruptedException {
    int threads = Integer.parseInt(a[0]);
    int buffers = Integer.parseInt(a[1]);
    int bufferBytes = Integer.parseInt(a[2]);
    CountDownLatch filled = new CountDownLatch(threads);
    for (int t = 0; t < threads; t++) {
      Thread worker = new Thread(() -> serve(buffers, bufferBytes, filled), "pool-worker-" + t);
      worker.setDaemon(true);
      worker.start();
    }
    filled.await();
    System.gc();
    System.out.println("ready");
    Thread.sleep(Long.MAX_VALUE);
  }

  static void serve(int buffers, int bufferBytes, CountDownLatch filled) {
    for (int task = 0; task < buffers; task++) {
      SCRATCH.get().add(new byte[bufferBytes]);
    }
    filled.countDown();
    try {
      Thread.sleep(Long.MAX_VALUE);
    } catch (InterruptedException stop) {
      Thread.currentThread().interrupt();
    }
  }
}
