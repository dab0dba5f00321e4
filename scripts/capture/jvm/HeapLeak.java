import java.util.ArrayList;
import java.util.List;

/**
 * A heap leak that ends in java.lang.OutOfMemoryError: each round keeps `keepKb` KiB for ever and
 * throws away `churnKb` KiB, so young collections run between the full ones while the live set climbs.
 * Usage: HeapLeak <keepKb> <churnKb>
 */
public class HeapLeak {
  static final List<byte[]> kept = new ArrayList<>();
  static long sink;

  public static void main(String[] a) {
    int keepKb = Integer.parseInt(a[0]);
    int churnKb = Integer.parseInt(a[1]);
    for (long round = 0; ; round++) {
      kept.add(new byte[keepKb * 1024]);
      for (int i = 0; i < churnKb; i++) sink += new byte[1024].length;
      if (round % 64 == 0) Thread.yield();
    }
  }
}
