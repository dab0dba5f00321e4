import java.util.concurrent.CountDownLatch;

/** Starts N threads that each recurse D frames deep (touching their stacks) and then sleep. */
public class Threads {
  static long dive(int depth) { return depth == 0 ? 0 : 1 + dive(depth - 1); }
  public static void main(String[] a) throws Exception {
    int n = Integer.parseInt(a[0]), depth = Integer.parseInt(a[1]);
    CountDownLatch started = new CountDownLatch(n);
    for (int i = 0; i < n; i++) {
      Thread t = new Thread(() -> {
        dive(depth);
        started.countDown();
        try { Thread.sleep(600000); } catch (InterruptedException e) { }
      });
      t.setDaemon(true);
      t.start();
    }
    started.await();
    System.out.println("ready");
    Thread.sleep(600000);
  }
}
