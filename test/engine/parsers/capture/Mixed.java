import java.util.*;

/** Holds 100000 each of several small kinds of object, so that no class dominates the heap. */
public class Mixed {
  public static void main(String[] a) throws Exception {
    Map<Long, String> map = new HashMap<>();
    List<Object> list = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      map.put(Long.valueOf(i + 1000), "v" + i);
      list.add(new int[2]);
      list.add(new Object());
      list.add(Double.valueOf(i));
    }
    System.out.println("ready");
    System.out.flush();
    Thread.sleep(600000);
    System.out.println(map.size() + list.size());
  }
}
