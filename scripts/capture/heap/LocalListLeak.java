import java.util.ArrayList;
import java.util.List;

/**
 * A leak held only by a local variable: the thread "ingest-worker" buffers every record of a batch
 * that never ends in the List `pending`, until the heap is full. With -XX:+HeapDumpOnOutOfMemoryError
 * the dump shows the list as a Java-frame root of that thread, and that thread as the one that threw.
 * Usage: LocalListLeak <recordBytes>
 */
public class LocalListLeak {
  public static void main(String[] a) throws InterruptedException {
    int recordBytes = Integer.parseInt(a[0]);
    Thread worker = new Thread(() -> bufferBatch(recordBytes), "ingest-worker");
    worker.start();
    worker.join();
  }

  static void bufferBatch(int recordBytes) {
    List<byte[]> pending = new ArrayList<>();
    System.out.println("ready");
    while (true) {
      pending.add(readRecord(recordBytes));
    }
  }

  static byte[] readRecord(int recordBytes) {
    return new byte[recordBytes];
  }
}
