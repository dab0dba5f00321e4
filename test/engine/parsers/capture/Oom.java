import java.nio.ByteBuffer;
import java.util.*;

/** Runs out of one kind of memory: heap, metaspace, direct, array, overhead. */
public class Oom {
  static final class Marker { final long id; Marker(long id) { this.id = id; } }
  public static void main(String[] a) throws Exception {
    List<Object> keep = new ArrayList<>();
    switch (a[0]) {
      case "heap": for (long i = 0; ; i++) keep.add(new Marker(i));
      case "direct": for (;;) keep.add(ByteBuffer.allocateDirect(1 << 20));
      case "array": { int[] huge = new int[Integer.MAX_VALUE]; System.out.println(huge.length); break; }
      case "overhead": { Map<Integer, String> m = new HashMap<>(); for (int i = 0; ; i++) m.put(i, String.valueOf(i)); }
      case "metaspace": {
        byte[] bytes = Oom.class.getClassLoader().getResourceAsStream("Oom$Marker.class").readAllBytes();
        for (int i = 0; ; i++) {
          ClassLoader l = new ClassLoader(null) {
            @Override protected Class<?> findClass(String n) { return defineClass(n, bytes, 0, bytes.length); }
          };
          keep.add(l.loadClass("Oom$Marker"));
        }
      }
      default: throw new IllegalArgumentException(a[0]);
    }
  }
}
