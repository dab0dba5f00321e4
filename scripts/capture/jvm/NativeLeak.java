import java.lang.reflect.Field;
import sun.misc.Unsafe;

/**
 * A native leak outside the heap: allocates 1 MiB blocks with Unsafe.allocateMemory (malloc, which
 * NMT counts under "Other" on JDK 17), writes every byte so the pages are resident, and never frees
 * them, as a JNI library or an unreleased off-heap buffer pool does. A 1 MiB block is above glibc's
 * mmap threshold (128 KiB), so each is its own mapping, not an arena's. Prints "ready" once it has
 * started, then leaks <MiB per second> until the process is killed. Usage: NativeLeak <MiB/s>
 */
public class NativeLeak {
  private static final long BLOCK = 1L << 20;

  public static void main(String[] a) throws Exception {
    int perSecond = Integer.parseInt(a[0]);
    Field f = Unsafe.class.getDeclaredField("theUnsafe");
    f.setAccessible(true);
    Unsafe unsafe = (Unsafe) f.get(null);
    System.out.println("ready");
    long pause = 1000L / perSecond;
    while (true) {
      long address = unsafe.allocateMemory(BLOCK);
      unsafe.setMemory(address, BLOCK, (byte) 1);
      Thread.sleep(pause);
    }
  }
}
