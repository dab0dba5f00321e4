import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Cuts a real HPROF file short the way a JVM killed while dumping leaves it: `boundary` keeps the
 * records that start before the middle of the file and stops exactly where the next top-level record
 * would begin; `mid` stops in the middle of the heap dump segment that spans the middle of the file,
 * 4097 bytes past its 9-byte record header (a point inside a sub-record, not on any boundary).
 * Prints the header, each cut's offset and the record it falls in, for SOURCES.md.
 * Usage: HprofCut <in.hprof> <boundary|mid> <out.hprof>
 */
public class HprofCut {
  public static void main(String[] a) throws IOException {
    Path in = Path.of(a[0]);
    long size = Files.size(in);
    long middle = size / 2;
    long cut = -1;
    String what = "";
    try (DataInputStream data = new DataInputStream(new java.io.BufferedInputStream(Files.newInputStream(in)))) {
      long offset = skipHeader(data);
      while (offset < size) {
        int tag = data.readUnsignedByte();
        data.readInt(); // microseconds since the header's timestamp
        long length = Integer.toUnsignedLong(data.readInt());
        long end = offset + 9 + length;
        if (end > middle) {
          if (a[1].equals("boundary")) {
            cut = offset;
            what = String.format("before record tag 0x%02X at offset %d (length %d)", tag, offset, length);
          } else {
            cut = offset + 9 + 4097;
            what = String.format("inside record tag 0x%02X that starts at offset %d (length %d)", tag, offset, length);
          }
          break;
        }
        data.skipNBytes(length);
        offset = end;
      }
    }
    if (cut < 0) throw new IOException("no record spans the middle of " + in);
    try (InputStream from = Files.newInputStream(in); OutputStream to = Files.newOutputStream(Path.of(a[2]))) {
      byte[] kept = from.readNBytes((int) cut);
      to.write(kept);
    }
    System.out.println(a[1] + " cut of " + in.getFileName() + " (" + size + " bytes) at " + cut + ": " + what);
  }

  /** The header: "JAVA PROFILE 1.0.x\0", u4 identifier size, u8 milliseconds since the epoch. */
  static long skipHeader(DataInputStream data) throws IOException {
    long read = 0;
    while (data.readUnsignedByte() != 0) read++;
    data.readInt();
    data.readLong();
    return read + 1 + 4 + 8;
  }
}
