import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;

/**
 * The heap bench's big dump (issue 36): a static session cache of `sessions` entries, each a
 * HashMap$Node, a Long key, a Session and its byte[] payload (4 objects), then the JVM dumps its own
 * heap (live objects) with HotSpotDiagnosticMXBean.dumpHeap, the code jcmd GC.heap_dump runs.
 * 4.9M sessions with 64-byte payloads give about 19.6M objects and a dump of about 1 GB.
 * Usage: SessionCache <sessions> <payloadBytes> <dump.hprof>
 */
public class SessionCache {
  static final class Session {
    final long started;
    int hits;
    final byte[] payload;

    Session(long started, byte[] payload) {
      this.started = started;
      this.payload = payload;
    }
  }

  static final Map<Long, Session> SESSIONS = new HashMap<>();

  public static void main(String[] a) throws Exception {
    int sessions = Integer.parseInt(a[0]);
    int payloadBytes = Integer.parseInt(a[1]);
    for (int i = 0; i < sessions; i++) {
      byte[] payload = new byte[payloadBytes];
      payload[i % payloadBytes] = (byte) i;
      SESSIONS.put((long) i, new Session(1_700_000_000_000L + i, payload));
    }
    dump(a[2]);
    System.out.println("dumped " + SESSIONS.size() + " sessions to " + a[2]);
  }

  static void dump(String path) throws Exception {
    ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).dumpHeap(path, true);
  }
}
