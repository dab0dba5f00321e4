import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.zip.GZIPInputStream;
import org.graalvm.visualvm.lib.jfluid.heap.ArrayItemValue;
import org.graalvm.visualvm.lib.jfluid.heap.FieldValue;
import org.graalvm.visualvm.lib.jfluid.heap.GCRoot;
import org.graalvm.visualvm.lib.jfluid.heap.Heap;
import org.graalvm.visualvm.lib.jfluid.heap.HeapFactory;
import org.graalvm.visualvm.lib.jfluid.heap.HeapSummary;
import org.graalvm.visualvm.lib.jfluid.heap.Instance;
import org.graalvm.visualvm.lib.jfluid.heap.JavaClass;
import org.graalvm.visualvm.lib.jfluid.heap.JavaFrameGCRoot;
import org.graalvm.visualvm.lib.jfluid.heap.JniLocalGCRoot;
import org.graalvm.visualvm.lib.jfluid.heap.ObjectArrayInstance;
import org.graalvm.visualvm.lib.jfluid.heap.ObjectFieldValue;
import org.graalvm.visualvm.lib.jfluid.heap.PrimitiveArrayInstance;
import org.graalvm.visualvm.lib.jfluid.heap.ThreadObjectGCRoot;
import org.graalvm.visualvm.lib.jfluid.heap.Value;

/**
 * The independent reference for memdoctor's HPROF reader (issue 36): what VisualVM's own heap library
 * (org-graalvm-visualvm-lib-jfluid-heap.jar, Debian package visualvm) says about a dump, as JSON on
 * stdout. A `.gz` dump is first gunzipped (all members) into a temporary file, since the library maps
 * the file. The library keeps its indexes in `<dump>.hwcache/` beside the dump and reuses them on the
 * next run (the bench removes that directory before each timed run). Modes:
 *   HeapReference <dump>                  the full reference (schema in test/fixtures/heap-dumps/SOURCES.md)
 *   HeapReference <dump> --biggest-only   only load the heap and find the 20 biggest objects by retained
 *                                         size (what the bench times), printing those
 * Classpath: this class and the jar. Thread names are decoded from the dump for the root paths; no
 * other string or array content is printed.
 */
public class HeapReference {
  static final int TOP = 20;
  static final int MAX_PATH = 64;
  static final int WITH_REFERRERS = 5;
  static final int MAX_REFERRERS = 8;
  static final List<String> SIZE_LOG = new ArrayList<>();
  static String gunzipNote;

  public static void main(String[] args) throws IOException {
    captureSizeSettingsLog();
    Path dump = Path.of(args[0]);
    boolean biggestOnly = args.length > 1 && args[1].equals("--biggest-only");
    Path plain = null;
    boolean failed = false;
    try {
      plain = dump.toString().endsWith(".gz") ? gunzip(dump) : dump;
      long started = System.nanoTime();
      Heap heap = HeapFactory.createHeap(plain.toFile());
      long loaded = System.nanoTime();
      if (biggestOnly) System.err.println("loaded in " + (loaded - started) / 1_000_000 + " ms"); // for a run cut short
      List<Instance> biggest = heap.getBiggestObjectsByRetainedSize(TOP);
      long retained = System.nanoTime();
      Json out = new Json();
      out.open();
      out.field("dump", dump.getFileName().toString());
      out.field("tool", "org-graalvm-visualvm-lib-jfluid-heap (Debian visualvm " + visualvmVersion() + ")");
      if (gunzipNote != null) out.field("gunzipNote", gunzipNote);
      out.field("idSize", idSize(plain));
      if (biggestOnly) {
        out.field("loadMillis", (loaded - started) / 1_000_000);
        out.field("biggestMillis", (retained - loaded) / 1_000_000);
      }
      out.key("biggestObjects");
      writeObjects(out, heap, biggest, !biggestOnly);
      if (!biggestOnly) writeFull(out, heap);
      out.key("sizeSettingsLog");
      out.strings(SIZE_LOG);
      out.close();
      System.out.println(out);
    } catch (IOException | RuntimeException failure) {
      Json out = new Json();
      out.open();
      out.field("dump", dump.getFileName().toString());
      out.field("tool", "org-graalvm-visualvm-lib-jfluid-heap (Debian visualvm " + visualvmVersion() + ")");
      if (gunzipNote != null) out.field("gunzipNote", gunzipNote);
      out.field("error", failure.toString());
      out.close();
      System.out.println(out);
      failed = true;
    } finally {
      if (plain != null && plain != dump) {
        Files.deleteIfExists(plain);
        deleteTree(Path.of(plain + ".hwcache"));
      }
    }
    if (failed) System.exit(1);
  }

  static void writeFull(Json out, Heap heap) {
    HeapSummary summary = heap.getSummary();
    out.key("summary");
    out.open();
    out.field("totalLiveInstances", summary.getTotalLiveInstances());
    out.field("totalLiveBytes", summary.getTotalLiveBytes());
    out.field("totalAllocatedInstances", summary.getTotalAllocatedInstances());
    out.field("totalAllocatedBytes", summary.getTotalAllocatedBytes());
    out.close();
    List<JavaClass> classes = new ArrayList<>(heap.getAllClasses());
    long instances = 0;
    long bytes = 0;
    for (JavaClass c : classes) {
      instances += c.getInstancesCount();
      bytes += c.getAllInstancesSize();
    }
    out.field("classCount", classes.size());
    out.field("totalInstances", instances);
    out.field("totalShallowBytes", bytes);
    writeUnreachable(out, heap);
    writeRootKinds(out, heap);
    classes.sort(Comparator.comparingLong(JavaClass::getAllInstancesSize).reversed()
        .thenComparing(JavaClass::getName).thenComparingLong(JavaClass::getJavaClassId));
    out.key("histogram");
    out.openArray();
    for (JavaClass c : classes) {
      if (c.getInstancesCount() == 0) continue;
      out.open();
      out.field("classId", hex(c.getJavaClassId()));
      out.field("name", c.getName());
      out.field("count", c.getInstancesCount());
      out.field("shallowBytes", c.getAllInstancesSize());
      out.field("instanceSize", c.getInstanceSize());
      out.close();
    }
    out.closeArray();
    classes.sort(Comparator.comparingLong(JavaClass::getRetainedSizeByClass).reversed()
        .thenComparing(JavaClass::getName).thenComparingLong(JavaClass::getJavaClassId));
    out.key("retainedByClass");
    out.openArray();
    for (JavaClass c : classes.subList(0, Math.min(TOP, classes.size()))) {
      out.open();
      out.field("classId", hex(c.getJavaClassId()));
      out.field("name", c.getName());
      out.field("count", c.getInstancesCount());
      out.field("shallowBytes", c.getAllInstancesSize());
      out.field("retainedBytes", c.getRetainedSizeByClass());
      out.close();
    }
    out.closeArray();
  }

  /** Objects no GC root reaches: not a root themselves and with no nearest-root pointer. */
  static void writeUnreachable(Json out, Heap heap) {
    long count = 0;
    long bytes = 0;
    for (var it = heap.getAllInstancesIterator(); it.hasNext(); ) {
      Instance i = it.next();
      if (!i.isGCRoot() && i.getNearestGCRootPointer() == null) {
        count++;
        bytes += i.getSize();
      }
    }
    out.key("unreachable");
    out.open();
    out.field("count", count);
    out.field("shallowBytes", bytes);
    out.close();
  }

  static void writeRootKinds(Json out, Heap heap) {
    Map<String, Long> kinds = new TreeMap<>();
    for (GCRoot root : heap.getGCRoots()) kinds.merge(root.getKind(), 1L, Long::sum);
    out.key("gcRootKinds");
    out.open();
    kinds.forEach(out::field);
    out.close();
  }

  static void writeObjects(Json out, Heap heap, List<Instance> objects, boolean withPaths) {
    out.openArray();
    int n = 0;
    for (Instance i : objects) {
      out.open();
      out.field("id", hex(i.getInstanceId()));
      out.field("class", i.getJavaClass().getName());
      writeClassObjectOf(out, heap, i);
      out.field("retainedBytes", i.getRetainedSize());
      out.field("shallowBytes", i.getSize());
      if (withPaths) {
        out.key("pathFromRoot");
        writePath(out, heap, i);
        if (n < WITH_REFERRERS) writeReferrers(out, i);
      }
      n++;
      out.close();
    }
    out.closeArray();
  }

  /**
   * VisualVM's nearest-GC-root chain (breadth-first from the roots), printed root first: each step
   * the object, and how its predecessor refers to it (field name, static field or array index).
   */
  static void writePath(Json out, Heap heap, Instance target) {
    List<Instance> chain = new ArrayList<>();
    for (Instance i = target; i != null && chain.size() < MAX_PATH; i = i.getNearestGCRootPointer()) {
      chain.add(0, i);
      if (i.isGCRoot()) break;
    }
    out.openArray();
    for (int n = 0; n < chain.size(); n++) {
      Instance step = chain.get(n);
      out.open();
      out.field("id", hex(step.getInstanceId()));
      out.field("class", step.getJavaClass().getName());
      writeClassObjectOf(out, heap, step);
      if (n == 0) writeRoots(out, heap, step);
      else out.field("via", referenceName(heap, chain.get(n - 1), step));
      out.close();
    }
    out.closeArray();
  }

  /** Every object or class that refers to this one (VisualVM's Instance.getReferences), first few. */
  static void writeReferrers(Json out, Instance target) {
    List<Value> refs = target.getReferences();
    out.field("referrerCount", refs.size());
    out.key("referrers");
    out.openArray();
    for (Value v : refs.subList(0, Math.min(MAX_REFERRERS, refs.size()))) {
      Instance from = v.getDefiningInstance();
      out.open();
      out.field("id", from == null ? null : hex(from.getInstanceId()));
      out.field("class", from == null ? null : from.getJavaClass().getName());
      if (v instanceof ArrayItemValue) out.field("via", "[" + ((ArrayItemValue) v).getIndex() + "]");
      else if (v instanceof FieldValue) {
        FieldValue f = (FieldValue) v;
        out.field("via", (f.getField().isStatic() ? "static " : "") + f.getField().getName());
        if (f.getField().isStatic()) out.field("declaringClass", f.getField().getDeclaringClass().getName());
      }
      out.close();
    }
    out.closeArray();
  }

  /** For a java.lang.Class object (a CLASS DUMP), the name of the class it stands for. */
  static void writeClassObjectOf(Json out, Heap heap, Instance i) {
    JavaClass described = heap.getJavaClassByID(i.getInstanceId());
    if (described != null) out.field("classObjectOf", described.getName());
  }

  static void writeRoots(Json out, Heap heap, Instance root) {
    out.key("roots");
    out.openArray();
    for (GCRoot r : heap.getGCRoots(root)) {
      out.open();
      out.field("kind", r.getKind());
      ThreadObjectGCRoot thread = null;
      int frame = -1;
      if (r instanceof JavaFrameGCRoot) {
        thread = ((JavaFrameGCRoot) r).getThreadGCRoot();
        frame = ((JavaFrameGCRoot) r).getFrameNumber();
      } else if (r instanceof JniLocalGCRoot) {
        thread = ((JniLocalGCRoot) r).getThreadGCRoot();
        frame = ((JniLocalGCRoot) r).getFrameNumber();
      }
      if (thread != null) {
        out.field("thread", threadName(thread.getInstance()));
        StackTraceElement[] trace = thread.getStackTrace();
        if (trace != null && frame >= 0 && frame < trace.length) out.field("frame", trace[frame].toString());
        out.field("frameNumber", frame);
      }
      out.close();
    }
    out.closeArray();
  }

  /**
   * How `from` refers to `to` in VisualVM's graph: an array slot, an instance field, a static field
   * (when `from` is a java.lang.Class, of the class it stands for), or the library's own edges from an
   * object to its class ("<class>") and from a class to its loader ("<classLoader>").
   */
  static String referenceName(Heap heap, Instance from, Instance to) {
    long target = to.getInstanceId();
    if (from.getJavaClass().getJavaClassId() == target) return "<class>";
    JavaClass described = heap.getJavaClassByID(from.getInstanceId());
    if (described != null) {
      for (FieldValue f : described.getStaticFieldValues()) {
        if (pointsTo(f, to)) return "static " + described.getName() + "." + f.getField().getName();
      }
      Instance loader = described.getClassLoader();
      if (loader != null && loader.getInstanceId() == target) return "<classLoader>";
    }
    if (from instanceof ObjectArrayInstance) {
      List<Instance> values = ((ObjectArrayInstance) from).getValues();
      for (int n = 0; n < values.size(); n++) {
        Instance v = values.get(n);
        if (v != null && v.getInstanceId() == to.getInstanceId()) return "[" + n + "]";
      }
    }
    for (FieldValue f : from.getFieldValues()) {
      if (pointsTo(f, to)) return f.getField().getName();
    }
    for (FieldValue f : from.getStaticFieldValues()) {
      if (pointsTo(f, to)) return "static " + f.getField().getName();
    }
    return "?";
  }

  static boolean pointsTo(FieldValue f, Instance to) {
    if (!(f instanceof ObjectFieldValue)) return false;
    Instance v = ((ObjectFieldValue) f).getInstance();
    return v != null && v.getInstanceId() == to.getInstanceId();
  }

  /** A java.lang.Thread's name: its String's value bytes, LATIN1 (coder 0) or UTF16 (coder 1). */
  static String threadName(Instance thread) {
    if (thread == null) return null;
    Object name = thread.getValueOfField("name");
    if (!(name instanceof Instance)) return null;
    Object value = ((Instance) name).getValueOfField("value");
    Object coder = ((Instance) name).getValueOfField("coder");
    if (!(value instanceof PrimitiveArrayInstance)) return null;
    List<String> items = ((PrimitiveArrayInstance) value).getValues();
    byte[] raw = new byte[items.size()];
    for (int n = 0; n < raw.length; n++) raw[n] = Byte.parseByte(items.get(n));
    boolean utf16 = coder != null && !"0".equals(String.valueOf(coder));
    return new String(raw, utf16 ? java.nio.charset.StandardCharsets.UTF_16LE : java.nio.charset.StandardCharsets.ISO_8859_1);
  }

  /** The library's cache directory beside a dump (`<dump>.hwcache`), removed with our temporary copy. */
  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) return;
    try (var walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    }
  }

  static int idSize(Path plain) throws IOException {
    try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(plain)))) {
      while (in.readUnsignedByte() != 0) {
        // the "JAVA PROFILE 1.0.x" string, up to its NUL
      }
      return in.readInt();
    }
  }

  /**
   * Gunzips every member into a temporary file. A gzip stream cut short (a -gz dump the JVM never
   * finished) keeps what was inflated, noted in gunzipNote, so the library reads as far as it goes.
   */
  static Path gunzip(Path dump) throws IOException {
    Path plain = Files.createTempFile("heap-reference-", ".hprof");
    try (InputStream in = new GZIPInputStream(new BufferedInputStream(Files.newInputStream(dump)), 1 << 16);
        var to = Files.newOutputStream(plain)) {
      byte[] buffer = new byte[1 << 16];
      long copied = 0;
      try {
        for (int n; (n = in.read(buffer)) > 0; copied += n) to.write(buffer, 0, n);
      } catch (java.io.EOFException cut) {
        gunzipNote = "gzip stream ends early (" + cut.getMessage() + ") after " + copied + " inflated bytes";
      }
    } catch (IOException | RuntimeException failure) {
      Files.deleteIfExists(plain);
      throw failure;
    }
    return plain;
  }

  /** ObjectSizeSettings logs at CONFIG how it chose the object header and reference sizes. */
  static void captureSizeSettingsLog() {
    Logger log = Logger.getLogger("org.graalvm.visualvm.lib.jfluid.heap.ObjectSizeSettings");
    log.setLevel(Level.CONFIG);
    log.setUseParentHandlers(false);
    log.addHandler(new Handler() {
      @Override public void publish(LogRecord r) {
        SIZE_LOG.add(java.text.MessageFormat.format(r.getMessage(), r.getParameters()));
      }
      @Override public void flush() {}
      @Override public void close() {}
    });
  }

  static String visualvmVersion() {
    return System.getProperty("visualvm.version", "unknown");
  }

  static String hex(long id) {
    return "0x" + Long.toHexString(id);
  }

  /** A small JSON writer: objects and arrays, commas placed by a stack of "first member" flags. */
  static final class Json {
    private final StringBuilder text = new StringBuilder();
    private final ArrayList<Boolean> first = new ArrayList<>();
    private boolean afterKey;

    void open() { value("{"); first.add(true); }
    void close() { text.append('}'); first.remove(first.size() - 1); }
    void openArray() { value("["); first.add(true); }
    void closeArray() { text.append(']'); first.remove(first.size() - 1); }

    void key(String k) {
      comma();
      text.append(quote(k)).append(':');
      afterKey = true;
    }

    void field(String k, Object v) {
      key(k);
      value(v == null ? "null" : v instanceof Number ? v.toString() : quote(v.toString()));
    }

    void strings(List<String> items) {
      openArray();
      for (String s : items) value(quote(s));
      closeArray();
    }

    private void value(String raw) {
      if (!afterKey) comma();
      afterKey = false;
      text.append(raw);
    }

    private void comma() {
      if (first.isEmpty()) return;
      int top = first.size() - 1;
      if (!first.get(top)) text.append(',');
      first.set(top, false);
    }

    static String quote(String s) {
      StringBuilder q = new StringBuilder("\"");
      for (char c : s.toCharArray()) {
        if (c == '"' || c == '\\') q.append('\\').append(c);
        else if (c < 0x20) q.append(String.format("\\u%04x", (int) c));
        else q.append(c);
      }
      return q.append('"').toString();
    }

    @Override public String toString() { return text.toString(); }
  }
}
