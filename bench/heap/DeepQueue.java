import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.LinkedList;

/**
 * The heap bench's deep-chain dump (issue 36): a static java.util.LinkedList of `nodes` byte[]
 * records, so the leak is one chain of that many LinkedList$Node objects, each dominated by the one
 * before it (the shape that makes a recursive walk overflow and a naive retained-size pass quadratic).
 * 186000 nodes of 256-byte records give a dump of about 61 MB. The JVM dumps its own heap (live
 * objects) with HotSpotDiagnosticMXBean.dumpHeap, the code jcmd GC.heap_dump runs.
 * Usage: DeepQueue <nodes> <recordBytes> <dump.hprof>
 */
public class DeepQueue {
  static final LinkedList<byte[]> QUEUE = new LinkedList<>();

  public static void main(String[] a) throws Exception {
    int nodes = Integer.parseInt(a[0]);
    int recordBytes = Integer.parseInt(a[1]);
    for (int i = 0; i < nodes; i++) QUEUE.addLast(new byte[recordBytes]);
    ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).dumpHeap(a[2], true);
    System.out.println("dumped " + QUEUE.size() + " nodes to " + a[2]);
  }
}
