package io.countersign.tools.gateway;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Set;

/**
 * The HTTP gateway's identity: a random bearer token an HTTP host must send, so that another local user, who can
 * reach a loopback port as well, cannot call tools or drive approvals in this user's name. It is made once (32
 * random bytes, URL-safe base64) in a file only its user can read, and the same token serves every later start.
 */
public final class GatewayToken {
    /** The file's name in the data folder. */
    public static final String FILE_NAME = "gateway-token";
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    private static final int RANDOM_BYTES = 32;

    private final Path file;
    private final byte[] token;

    private GatewayToken(Path file, byte[] token) {
        this.file = file;
        this.token = token;
    }

    /**
     * The token kept in {@code folder}, made there first when there is none.
     *
     * @throws IllegalStateException naming the file and the cause, when it cannot be made or read, or when others
     *                               may read it
     */
    public static GatewayToken in(Path folder) {
        Path file = folder.resolve(FILE_NAME).toAbsolutePath();
        try {
            make(file);
        } catch (FileAlreadyExistsException kept) {
            // made by an earlier start, or by another process just now: read as it is
        } catch (IOException e) {
            throw new IllegalStateException("the gateway's token file " + file + " could not be made: "
                    + reason(e));
        }
        return new GatewayToken(file, read(file));
    }

    private static void make(Path file) throws IOException {
        byte[] random = new byte[RANDOM_BYTES];
        new SecureRandom().nextBytes(random);
        byte[] text = Base64.getUrlEncoder().withoutPadding().encode(random);
        Path fresh = posix()
                ? Files.createTempFile(file.getParent(), ".gateway-token-", ".new",
                PosixFilePermissions.asFileAttribute(OWNER_ONLY))
                : Files.createTempFile(file.getParent(), ".gateway-token-", ".new");
        try {
            Files.write(fresh, text);
            // a link, not a move: of two first starts at once, one token wins and both read it
            Files.createLink(file, fresh);
        } finally {
            Files.deleteIfExists(fresh);
        }
    }

    private static byte[] read(Path file) {
        try {
            if (posix()) {
                Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
                if (!OWNER_ONLY.containsAll(permissions)) {
                    throw new IllegalStateException("the gateway's token file " + file + " can be read by others ("
                            + PosixFilePermissions.toString(permissions) + "); it is not used: remove it (a new"
                            + " token is made) or make it rw------- (chmod 600)");
                }
            }
            byte[] token = Files.readString(file, StandardCharsets.US_ASCII).strip()
                    .getBytes(StandardCharsets.US_ASCII);
            if (token.length < RANDOM_BYTES) {
                throw new IllegalStateException("the gateway's token file " + file + " holds no token; remove it"
                        + " and a new one is made");
            }
            return token;
        } catch (IOException e) {
            throw new IllegalStateException("the gateway's token file " + file + " cannot be read: " + reason(e));
        }
    }

    private static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "its folder does not exist";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        return e.getMessage() == null ? "an input/output error" : e.getMessage();
    }

    private static boolean posix() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    }

    /** The file the token is kept in. */
    public Path file() {
        return file;
    }

    /** The token, as a host sends it after {@code Bearer }. */
    public String value() {
        return new String(token, StandardCharsets.US_ASCII);
    }

    /** Whether {@code presented} is the token, in time that does not depend on how much of it matches. */
    boolean matches(String presented) {
        return presented != null && MessageDigest.isEqual(token, presented.getBytes(StandardCharsets.US_ASCII));
    }
}
