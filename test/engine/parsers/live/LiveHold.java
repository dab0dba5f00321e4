import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Holds a known amount of memory for live-jdk.test.ts: N Marker objects and D direct buffers of
 * 1 MiB, after one explicit full GC, then waits to be inspected (and killed).
 */
public class LiveHold {
  static final class Marker {
    final long id;
    Marker(long id) { this.id = id; }
  }

  public static void main(String[] args) throws Exception {
    int markers = Integer.parseInt(args[0]);
    int directMiB = Integer.parseInt(args[1]);
    List<Object> keep = new ArrayList<>();
    for (int i = 0; i < markers; i++) keep.add(new Marker(i));
    for (int i = 0; i < directMiB; i++) keep.add(ByteBuffer.allocateDirect(1 << 20));
    System.gc();
    System.out.println("ready " + System.getProperty("java.specification.version"));
    System.out.flush();
    Thread.sleep(120_000);
    System.out.println(keep.size());
  }
}
