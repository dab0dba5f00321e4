import java.nio.ByteBuffer;
import java.util.*;

/** Waits, then keeps MiB direct buffers one per few ms: memory outside the heap that NMT counts as Other. */
public class DirectLeak {
  public static void main(String[] a) throws Exception {
    int mib = Integer.parseInt(a[0]);
    List<ByteBuffer> keep = new ArrayList<>();
    System.out.println("ready");
    System.out.flush();
    Thread.sleep(3000);
    for (int i = 0; i < mib; i++) { keep.add(ByteBuffer.allocateDirect(1 << 20)); Thread.sleep(5); }
    System.out.println("grown " + keep.size());
    System.out.flush();
    Thread.sleep(600000);
  }
}
