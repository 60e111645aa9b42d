package io.countersign.engine.rules;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.agent.AgentConfiguration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Set;

/**
 * Where a file tool's {@code path} argument points, judged against the agent's workspace the way the file system
 * will see it: {@code ..} is applied and symbolic links are followed (also dangling ones, and links inside links),
 * so a link that points out of the workspace is caught.
 */
final class FileToolPath {
    /** The file tools; each takes a {@code path} relative to the agent's workspace, or absolute. */
    static final Set<String> FILE_TOOLS = Set.of("fs_list", "fs_read", "fs_write", "fs_delete");
    static final String OUTSIDE_WORKSPACE = "outside_workspace";
    static final String NO_WORKSPACE = "no_workspace";
    static final String INVALID_PATH = "invalid_path";
    private static final String PATH_ARGUMENT = "path";
    // As the Linux kernel: more nested links than this is a loop.
    private static final int MAX_NESTED_LINKS = 40;

    /** A file tool call's path: inside the workspace, or refused with a reason code. */
    sealed interface Location permits Inside, Refused {
    }

    /** Inside the workspace; {@code identifier} is the workspace-relative path with {@code /}, or {@code .}. */
    record Inside(String identifier) implements Location {
    }

    record Refused(String reasonCode) implements Location {
    }

    private FileToolPath() {
    }

    static boolean isFileTool(String toolName) {
        return FILE_TOOLS.contains(toolName);
    }

    /**
     * Locates the {@code path} argument of a file tool call.
     *
     * @throws UncheckedIOException when the file system cannot say where a path leads (a link loop, no permission)
     */
    static Location locate(ObjectNode arguments, AgentConfiguration configuration) {
        String workspaceSetting = configuration.workspace();
        if (workspaceSetting == null || workspaceSetting.isBlank()) {
            return new Refused(NO_WORKSPACE);
        }
        JsonNode argument = arguments.get(PATH_ARGUMENT);
        if (argument == null || !argument.isTextual()) {
            return new Refused(INVALID_PATH);
        }
        Path requested;
        try {
            requested = Path.of(argument.textValue());
        } catch (InvalidPathException e) {
            return new Refused(INVALID_PATH);
        }
        try {
            Path workspace = real(Path.of(workspaceSetting).toAbsolutePath());
            Path resolved = requested.isAbsolute() ? real(requested) : walk(workspace, requested, 0);
            if (!resolved.startsWith(workspace)) {
                return new Refused(OUTSIDE_WORKSPACE);
            }
            return new Inside(identifier(workspace.relativize(resolved)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The workspace folder's own name, as the person behind the run knows it. */
    static String workspaceName(AgentConfiguration configuration) {
        Path workspace = Path.of(configuration.workspace());
        return workspace.getFileName() == null ? workspace.toString() : workspace.getFileName().toString();
    }

    private static Path real(Path absolute) throws IOException {
        return walk(absolute.getRoot(), absolute, 0);
    }

    /**
     * {@code base} with the names of {@code path} applied one by one; a name that is a symbolic link is replaced by
     * where it leads. Names below a missing directory are applied as written: nothing there can be a link yet.
     */
    private static Path walk(Path base, Path path, int nestedLinks) throws IOException {
        Path current = base;
        for (Path name : path) {
            String part = name.toString();
            if (part.equals("..")) {
                current = current.getParent() == null ? current : current.getParent();
            } else if (!part.equals(".") && !part.isEmpty()) {
                current = current.resolve(part);
                if (Files.isSymbolicLink(current)) {
                    if (nestedLinks == MAX_NESTED_LINKS) {
                        throw new FileSystemException(current.toString(), null, "too many levels of symbolic links");
                    }
                    Path link = Files.readSymbolicLink(current);
                    current = link.isAbsolute() ? walk(link.getRoot(), link, nestedLinks + 1)
                            : walk(current.getParent(), link, nestedLinks + 1);
                }
            }
        }
        return current;
    }

    private static String identifier(Path relative) {
        if (relative.toString().isEmpty()) {
            return ".";
        }
        StringBuilder identifier = new StringBuilder();
        for (Path name : relative) {
            if (identifier.length() > 0) {
                identifier.append('/');
            }
            identifier.append(name);
        }
        return identifier.toString();
    }
}
