import java.util.concurrent.CountDownLatch;

/**
 * A thread leak: starts N threads that block for ever with a shallow stack, as an unbounded pool's
 * idle workers do, prints "ready" and waits for jcmd. Usage: ThreadLeak <threads>
 */
public class ThreadLeak {
  public static void main(String[] a) throws Exception {
    int n = Integer.parseInt(a[0]);
    CountDownLatch started = new CountDownLatch(n);
    Object never = new Object();
    for (int i = 0; i < n; i++) {
      Thread t = new Thread(() -> {
        started.countDown();
        synchronized (never) {
          try { never.wait(); } catch (InterruptedException e) { }
        }
      }, "leaked-worker-" + i);
      t.setDaemon(true);
      t.start();
    }
    started.await();
    System.out.println("ready");
    Thread.sleep(600_000);
  }
}
