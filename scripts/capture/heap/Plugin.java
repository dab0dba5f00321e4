/**
 * The class a ClassLoaderLeak "redeploy" loads through its own URLClassLoader: each copy of the class
 * holds a static table, so every loader left reachable keeps its class and that table alive.
 */
public class Plugin {
  static final byte[] TABLE = new byte[64 * 1024];

  public String name() {
    return "plugin-" + TABLE.length;
  }
}
