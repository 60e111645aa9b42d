package io.countersign.tools;

import io.countersign.engine.agent.AgentConfiguration;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * An agent's workspace folder, the only place the file tools may touch. Every path a model names goes through
 * {@link #resolve}: it is taken relative to the folder, its {@code ..} parts are normalised away, the links of
 * the parts that exist are resolved, and whatever does not end up inside the folder is refused.
 */
final class Workspace {
    /** Larger files are refused rather than read into memory; a result keeps only its first 50,000 bytes anyway. */
    static final long MAX_TEXT_BYTES = 8L * 1024 * 1024;

    private final Path root;

    private Workspace(Path root) {
        this.root = root;
    }

    /** The workspace of the agent a call runs under, or a refusal when it has none that exists. */
    static Workspace of(AgentConfiguration configuration) throws Refusal {
        String folder = configuration.workspace();
        if (folder == null || folder.isBlank()) {
            throw new Refusal("this agent has no workspace folder");
        }
        Path root;
        try {
            root = Path.of(folder).toRealPath();
        } catch (InvalidPathException | IOException e) {
            throw new Refusal("this agent's workspace folder does not exist");
        }
        if (!Files.isDirectory(root)) {
            throw new Refusal("this agent's workspace folder is not a folder");
        }
        return new Workspace(root);
    }

    /**
     * The real location a requested path names, inside the workspace; it may not exist yet. The result is what
     * the tool must operate on, never the request itself, so what was checked is what gets touched.
     */
    Path resolve(String requested) throws Refusal {
        return real(lexical(requested), requested);
    }

    /**
     * Like {@link #resolve}, except that a link in the last place is not followed: the entry itself, to be
     * deleted. Removing a link never touches what it leads to, so only its folder must be inside.
     */
    Path resolveEntry(String requested) throws Refusal {
        Path lexical = lexical(requested);
        if (lexical.equals(root)) {
            return root;
        }
        return real(lexical.getParent(), requested).resolve(lexical.getFileName());
    }

    private Path lexical(String requested) throws Refusal {
        if (requested.isBlank()) {
            throw new Refusal("path must not be empty; use \".\" for the workspace folder itself");
        }
        Path lexical;
        try {
            lexical = root.resolve(requested).normalize();
        } catch (InvalidPathException e) {
            throw new Refusal("\"" + requested + "\" is not a valid path");
        }
        if (!lexical.startsWith(root)) {
            throw new Refusal("path \"" + requested + "\" is outside the workspace folder");
        }
        return lexical;
    }

    /** The path with the links of its existing parts resolved; it must still be inside. */
    private Path real(Path lexical, String requested) throws Refusal {
        Path existing = lexical;
        while (!Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            existing = existing.getParent();
        }
        Path real;
        try {
            real = existing.toRealPath().resolve(existing.relativize(lexical));
        } catch (IOException e) {
            throw new Refusal("path \"" + requested + "\" goes through a broken link");
        }
        if (!real.startsWith(root)) {
            throw new Refusal("path \"" + requested + "\" leads outside the workspace folder through a link");
        }
        return real;
    }

    boolean isRoot(Path path) {
        return path.equals(root);
    }

    /** How a resolved path is shown to the model and to people: relative, with forward slashes. */
    String display(Path path) {
        String relative = root.relativize(path).toString();
        return relative.isEmpty() ? "." : relative.replace(path.getFileSystem().getSeparator(), "/");
    }

    /** The content of an existing regular file as UTF-8 text; binary and oversized files are refused. */
    String readText(Path file) throws Refusal, IOException {
        long size = Files.size(file);
        if (size > MAX_TEXT_BYTES) {
            throw new Refusal(display(file) + " is " + size + " bytes; files of at most " + MAX_TEXT_BYTES
                    + " bytes can be read");
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(Files.readAllBytes(file)))
                    .toString();
        } catch (CharacterCodingException e) {
            throw notText(file);
        }
        // valid UTF-8 may still be binary; a NUL byte never occurs in text
        if (text.indexOf('\0') >= 0) {
            throw notText(file);
        }
        return text;
    }

    private Refusal notText(Path file) {
        return new Refusal(display(file) + " is not UTF-8 text; it looks like a binary file");
    }
}
