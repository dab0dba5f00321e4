import java.util.*;
import java.util.concurrent.CountDownLatch;
import java.util.zip.Deflater;

/** T threads each keep K zlib Deflaters busy: zlib mallocs in each thread's glibc arena, outside NMT. */
public class Arenas {
  public static void main(String[] a) throws Exception {
    int threads = Integer.parseInt(a[0]), perThread = Integer.parseInt(a[1]);
    CountDownLatch done = new CountDownLatch(threads);
    List<Deflater> keep = Collections.synchronizedList(new ArrayList<>());
    for (int t = 0; t < threads; t++) {
      new Thread(() -> {
        Random random = new Random(42);
        byte[] input = new byte[128 * 1024];
        byte[] output = new byte[256 * 1024];
        for (int i = 0; i < perThread; i++) {
          random.nextBytes(input);
          Deflater d = new Deflater();
          d.setInput(input);
          d.deflate(output, 0, output.length, Deflater.SYNC_FLUSH);
          keep.add(d);
        }
        done.countDown();
        try { Thread.sleep(600000); } catch (InterruptedException e) { }
      }).start();
    }
    done.await();
    System.out.println("ready " + keep.size());
    Thread.sleep(600000);
  }
}
