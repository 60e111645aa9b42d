package io.countersign.tools.mcp.oauth;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The grants in one JSON file that only the user can read: on POSIX systems the file is created {@code 0600} in a
 * folder {@code 0700}, and a file that others can read is refused rather than used. Each change writes a new file
 * and moves it in place, so a reader never sees half of one.
 */
public final class FileTokenVault implements TokenVault {
    private static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_FOLDER = PosixFilePermissions.fromString("rwx------");
    private static final TypeReference<TreeMap<String, StoredGrant>> GRANTS = new TypeReference<>() {
    };
    private final ObjectMapper json = new ObjectMapper();
    private final Path file;
    private final boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    public FileTokenVault(Path file) {
        this.file = file;
    }

    /** {@code oauth-tokens.json} in the user's configuration folder for Countersign. */
    public static FileTokenVault inUserConfig() {
        return new FileTokenVault(userConfigFolder().resolve("countersign").resolve("oauth-tokens.json"));
    }

    static Path userConfigFolder() {
        String os = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT);
        String home = System.getProperty("user.home");
        if (os.contains("win") && System.getenv("APPDATA") != null) {
            return Path.of(System.getenv("APPDATA"));
        }
        if (os.contains("mac")) {
            return Path.of(home, "Library", "Application Support");
        }
        String xdg = System.getenv("XDG_CONFIG_HOME");
        return xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(home, ".config");
    }

    public Path file() {
        return file;
    }

    @Override
    public synchronized Optional<StoredGrant> load(String server) {
        return Optional.ofNullable(read().get(server));
    }

    @Override
    public synchronized void save(String server, StoredGrant grant) {
        TreeMap<String, StoredGrant> grants = read();
        grants.put(server, grant);
        write(grants);
    }

    @Override
    public synchronized void remove(String server) {
        TreeMap<String, StoredGrant> grants = read();
        if (grants.remove(server) != null) {
            write(grants);
        }
    }

    @Override
    public String description() {
        return "the file " + file + (posix ? " (readable by this user only, 0600)" : "");
    }

    private TreeMap<String, StoredGrant> read() {
        if (!Files.exists(file)) {
            return new TreeMap<>();
        }
        try {
            if (posix) {
                Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
                if (!OWNER_FILE.containsAll(permissions)) {
                    throw new OAuthException("the token file " + file + " can be read by others ("
                            + PosixFilePermissions.toString(permissions) + "); it is not used: remove it or make it"
                            + " rw------- (chmod 600)");
                }
            }
            return json.readValue(file.toFile(), GRANTS);
        } catch (IOException e) {
            throw new OAuthException("the token file " + file + " cannot be read: " + e.getClass().getSimpleName());
        }
    }

    private void write(Map<String, StoredGrant> grants) {
        try {
            Path folder = file.toAbsolutePath().getParent();
            if (posix) {
                if (!Files.isDirectory(folder)) {
                    Files.createDirectories(folder, PosixFilePermissions.asFileAttribute(OWNER_FOLDER));
                }
            } else {
                Files.createDirectories(folder);
            }
            Path fresh = posix ? Files.createTempFile(folder, ".oauth-tokens-", ".json",
                    PosixFilePermissions.asFileAttribute(OWNER_FILE))
                    : Files.createTempFile(folder, ".oauth-tokens-", ".json");
            try {
                json.writeValue(fresh.toFile(), grants);
                try {
                    Files.move(fresh, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(fresh, file, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(fresh);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the token file " + file + " could not be written", e);
        }
    }
}
