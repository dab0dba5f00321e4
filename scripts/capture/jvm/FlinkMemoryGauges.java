import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryUsage;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Reads the memory gauges a Flink TaskManager registers (apache/flink MetricUtils
 * instantiateMemoryMetrics: Status.JVM.Memory.Heap.* from MemoryMXBean.getHeapMemoryUsage(),
 * .Metaspace.* from the memory pool named "Metaspace", .Direct.* from the MBean
 * java.nio:type=BufferPool,name=direct) while the process holds `directMb` MiB of direct buffers in
 * 1 MiB pieces and `heapMb` MiB on the heap, as a TaskManager whose off-heap use grew while its heap
 * stayed small. Prints one line per gauge, "<metric id> <value>", the value as Flink's
 * MetricDumpSerialization sends it (the gauge's Long.toString()).
 * Usage: FlinkMemoryGauges <directMb> <heapMb>
 */
public class FlinkMemoryGauges {
  static final List<Object> kept = new ArrayList<>();

  public static void main(String[] a) throws Exception {
    int directMb = Integer.parseInt(a[0]);
    int heapMb = Integer.parseInt(a[1]);
    for (int i = 0; i < directMb; i++) kept.add(ByteBuffer.allocateDirect(1 << 20));
    for (int i = 0; i < heapMb; i++) kept.add(new byte[1 << 20]);
    MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    print("Heap.Used", heap.getUsed());
    print("Heap.Committed", heap.getCommitted());
    print("Heap.Max", heap.getMax());
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (!"Metaspace".equals(pool.getName())) continue;
      print("Metaspace.Used", pool.getUsage().getUsed());
      print("Metaspace.Max", pool.getUsage().getMax());
      break;
    }
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    ObjectName direct = new ObjectName("java.nio:type=BufferPool,name=direct");
    print("Direct.Count", server.getAttribute(direct, "Count"));
    print("Direct.MemoryUsed", server.getAttribute(direct, "MemoryUsed"));
    print("Direct.TotalCapacity", server.getAttribute(direct, "TotalCapacity"));
    System.out.println("# kept " + kept.size());
  }

  static void print(String name, Object value) {
    System.out.println("Status.JVM.Memory." + name + " " + value.toString());
  }
}
