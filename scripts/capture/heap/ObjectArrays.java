import java.util.ArrayList;
import java.util.List;

/**
 * Object arrays of several shapes held from static fields: a 2-D Object[][] of boxed Integers, a
 * String[] (with nulls), an array of a user class, and an ArrayList whose backing Object[] holds most
 * of the retained memory. The capture script dumps with jcmd GC.heap_dump -gz=1 once "ready" is printed.
 * Usage: ObjectArrays <rows>
 */
public class ObjectArrays {
  static final class Order {
    final long id;
    final String sku;
    final Order[] related;

    Order(long id, String sku, Order[] related) {
      this.id = id;
      this.sku = sku;
      this.related = related;
    }
  }

  static Object[][] grid;
  static String[] names;
  static Order[] orders;
  static final List<Order> BACKLOG = new ArrayList<>();

  public static void main(String[] a) throws InterruptedException {
    int rows = Integer.parseInt(a[0]);
    grid = new Object[rows][];
    for (int r = 0; r < rows; r++) {
      grid[r] = new Object[16];
      for (int c = 0; c < 16; c += 2) grid[r][c] = Integer.valueOf(r * 16 + c + 1000);
    }
    names = new String[rows];
    for (int r = 0; r < rows; r += 3) names[r] = "name-" + r;
    orders = new Order[rows];
    for (int r = 0; r < rows; r++) orders[r] = new Order(r, "sku-" + (r % 97), r > 0 ? new Order[] {orders[r - 1]} : new Order[0]);
    for (int r = 0; r < rows * 4; r++) BACKLOG.add(new Order(r, null, null));
    System.gc();
    System.out.println("ready");
    Thread.sleep(Long.MAX_VALUE);
  }
}
