import java.nio.ByteBuffer;
import java.util.*;

/** Holds a known amount of memory still, so captures can be checked: N Marker objects, M MiB of byte[], T threads, D MiB direct. */
public class Hold {
  static final class Marker { final long id; Marker(long id) { this.id = id; } }
  public static void main(String[] a) throws Exception {
    int markers = Integer.parseInt(a[0]), mib = Integer.parseInt(a[1]), threads = Integer.parseInt(a[2]), direct = Integer.parseInt(a[3]);
    List<Object> keep = new ArrayList<>();
    for (int i = 0; i < markers; i++) keep.add(new Marker(i));
    for (int i = 0; i < mib; i++) keep.add(new byte[1 << 20]);
    for (int i = 0; i < direct; i++) keep.add(ByteBuffer.allocateDirect(1 << 20));
    for (int i = 0; i < threads; i++) { Thread t = new Thread(() -> { try { Thread.sleep(600000); } catch (Exception e) {} }); t.setDaemon(true); t.start(); }
    System.out.println("ready");
    System.out.flush();
    Thread.sleep(600000);
    System.out.println(keep.size());
  }
}
