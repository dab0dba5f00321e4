import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A class loader leak: each "redeploy" opens a new URLClassLoader over the plugin directory, loads
 * Plugin (a new class each time) and registers its instance in the static REGISTRY, which nobody
 * clears, so every loader, its Plugin class and the class's static table stay alive.
 * The capture script dumps the heap with jcmd GC.heap_dump once "ready" is printed.
 * Usage: ClassLoaderLeak <pluginDir> <redeploys>
 */
public class ClassLoaderLeak {
  static final List<Object> REGISTRY = new ArrayList<>();

  public static void main(String[] a) throws Exception {
    URL[] path = {Path.of(a[0]).toUri().toURL()};
    int redeploys = Integer.parseInt(a[1]);
    for (int i = 0; i < redeploys; i++) {
      URLClassLoader loader = new URLClassLoader("plugin-deploy-" + i, path, null);
      REGISTRY.add(loader.loadClass("Plugin").getDeclaredConstructor().newInstance());
    }
    System.gc();
    System.out.println("ready " + REGISTRY.size());
    Thread.sleep(Long.MAX_VALUE);
  }
}
