import java.util.*;

/** Allocates garbage and keeps a part of it: keepKiB of every MiB allocated, for seconds. */
public class Churn {
  public static void main(String[] a) throws Exception {
    int keepKiB = Integer.parseInt(a[0]);
    long seconds = Long.parseLong(a[1]);
    List<byte[]> kept = new ArrayList<>();
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    byte[] sink = null;
    while (System.nanoTime() < end) {
      for (int i = 0; i < 1024; i++) sink = new byte[1024];
      if (keepKiB > 0) kept.add(new byte[keepKiB * 1024]);
      Thread.sleep(1);
    }
    System.out.println(kept.size() + " " + sink.length);
  }
}
