import java.util.HashMap;
import java.util.Map;

/**
 * A static cache that is never evicted: every request's result stays in CacheLeak.CACHE until the
 * heap is full and the JVM throws OutOfMemoryError (run with -XX:+HeapDumpOnOutOfMemoryError).
 * Usage: CacheLeak <valueBytes>
 */
public class CacheLeak {
  static final Map<String, byte[]> CACHE = new HashMap<>();

  public static void main(String[] a) {
    int valueBytes = Integer.parseInt(a[0]);
    System.out.println("ready");
    for (long request = 0; ; request++) {
      CACHE.put("request-" + request, new byte[valueBytes]);
    }
  }
}
