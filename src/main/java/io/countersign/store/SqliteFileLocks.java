package io.countersign.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The processes that hold a SQLite store's files open, read from the locks Linux lists in {@code /proc/locks}: a
 * connection in WAL mode keeps a lock on the store's {@code -shm} file for as long as it is open, whatever program
 * or build made it, registered or not. Reading that list takes no lock, so SQLite's own locks stay as they are
 * (a test lock taken from this process would release them). Elsewhere than Linux the list is empty.
 */
final class SqliteFileLocks {
    private static final Path LOCKS = Path.of("/proc/locks");
    private static final Logger LOG = Logger.getLogger(SqliteFileLocks.class.getName());

    /** A process holding a lock on one of the store's files, and its command line as far as it can be read. */
    record Holder(long pid, String command) {
    }

    private SqliteFileLocks() {
    }

    /** The processes other than {@code self} holding a lock on the store file, its {@code -wal} or its {@code -shm}. */
    static List<Holder> holders(Path store, long self) {
        if (!Files.isReadable(LOCKS)) {
            return List.of();
        }
        try {
            Set<String> files = new HashSet<>();
            for (String suffix : List.of("", "-wal", "-shm")) {
                Path file = Path.of(store + suffix);
                if (Files.exists(file)) {
                    files.add(deviceAndInode(file));
                }
            }
            Map<Long, Holder> holders = new LinkedHashMap<>();
            for (String line : Files.readAllLines(LOCKS, StandardCharsets.UTF_8)) {
                // "1: POSIX  ADVISORY  READ 25949 fe:00:2195657 128 128"; a waiting lock's line has "->" after "1:"
                String[] fields = line.trim().split("\\s+");
                if (fields.length < 6 || fields[1].equals("->")) {
                    continue;
                }
                long pid = Long.parseLong(fields[4]);
                if (pid != self && files.contains(fields[5]) && pid > 0) {
                    holders.computeIfAbsent(pid, SqliteFileLocks::holder);
                }
            }
            return new ArrayList<>(holders.values());
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINE, "the file locks on " + store + " could not be read", e);
            return List.of();
        }
    }

    /** The file as {@code /proc/locks} names it: the device's major and minor number in hex, and the inode. */
    private static String deviceAndInode(Path file) throws IOException {
        long device = ((Number) Files.getAttribute(file, "unix:dev")).longValue();
        long inode = ((Number) Files.getAttribute(file, "unix:ino")).longValue();
        long major = ((device >>> 8) & 0xfff) | ((device >>> 32) & ~0xfffL);
        long minor = (device & 0xff) | ((device >>> 12) & ~0xffL);
        return String.format("%02x:%02x:%d", major, minor, inode);
    }

    private static Holder holder(long pid) {
        try {
            byte[] command = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
            String text = new String(command, StandardCharsets.UTF_8).replace('\0', ' ').strip();
            return new Holder(pid, text.length() > 80 ? text.substring(0, 80) + "..." : text);
        } catch (IOException e) {
            return new Holder(pid, "");
        }
    }
}
