package io.countersign.tools;

import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.FixedTool;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolPreview;
import io.countersign.engine.tool.ToolResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code fs_write}: writes a UTF-8 text file in the workspace, creating its folders. The file is replaced in one
 * step (a temporary file moved over it), so a reader never sees half of it. The preview is the unified diff.
 */
public final class WriteFileTool extends FixedTool {
    public static final String NAME = "fs_write";

    private static final StringParameters PARAMETERS = StringParameters.builder()
            .required("path", "File to write, relative to the workspace folder. Missing folders are created.")
            .required("content", "The complete new content of the file, as UTF-8 text.")
            .build();

    public WriteFileTool() {
        super(NAME,
                "Write a text file in the workspace: create it, or replace its whole content. Missing folders on the"
                + " way are created. Give the complete new content; nothing of the old content is kept.",
                PARAMETERS.schema(), ToolEffect.WRITE, DataClass.SOURCE_CODE, "files");
    }

    @Override
    public ToolResult execute(ToolCallRequest request) throws IOException {
        try {
            Target target = target(request);
            boolean existed = Files.exists(target.file());
            byte[] bytes = target.content().getBytes(StandardCharsets.UTF_8);
            writeAtomically(target.file(), bytes, target.shown());
            return ToolResult.ok((existed ? "replaced " : "created ") + target.shown() + " (" + bytes.length
                    + " bytes)");
        } catch (Refusal refusal) {
            return ToolResult.failure(refusal.getMessage());
        } catch (AccessDeniedException e) {
            return ToolResult.failure("the file system denied access to this path");
        }
    }

    @Override
    public Optional<ToolPreview> preview(ToolCallRequest request) {
        try {
            return Optional.of(ToolPreview.clipped(change(target(request))));
        } catch (Refusal refusal) {
            return Optional.of(ToolPreview.clipped(List.of("this call will fail: " + refusal.getMessage())));
        }
    }

    /** The change as a diff, or in words when there is nothing to diff. */
    private static List<String> change(Target target) {
        String shown = target.shown();
        if (!Files.exists(target.file())) {
            return target.content().isEmpty()
                    ? List.of("create empty file " + shown)
                    : UnifiedDiff.of("/dev/null", "b/" + shown, "", target.content());
        }
        String before;
        try {
            before = target.workspace().readText(target.file());
        } catch (Refusal refusal) {
            return List.of("replace " + shown + " with the new text; its current content cannot be shown: "
                    + refusal.getMessage());
        } catch (IOException e) {
            return List.of("replace " + shown + " with the new text; its current content cannot be read");
        }
        List<String> diff = UnifiedDiff.of("a/" + shown, "b/" + shown, before, target.content());
        return diff.isEmpty() ? List.of("no change to " + shown) : diff;
    }

    /** Where the call writes and what; refused when it names something that cannot be written as a file. */
    private static Target target(ToolCallRequest request) throws Refusal {
        StringParameters.Arguments arguments = PARAMETERS.read(request.arguments());
        Workspace workspace = Workspace.of(request.workspace());
        Path file = workspace.resolve(arguments.required("path"));
        String shown = workspace.display(file);
        if (workspace.isRoot(file) || Files.isDirectory(file)) {
            throw new Refusal(shown + " is a folder; give the path of a file");
        }
        return new Target(workspace, file, shown, arguments.required("content"));
    }

    private static void writeAtomically(Path file, byte[] bytes, String shown) throws IOException, Refusal {
        Path folder = file.getParent();
        try {
            Files.createDirectories(folder);
        } catch (FileAlreadyExistsException e) {
            throw new Refusal("cannot create the folders for " + shown + ": a file is in the way");
        }
        // a temporary file made by Files.createTempFile would be private to its owner; this one gets the usual
        // permissions for a new file, or those of the file it replaces
        Path temporary = folder.resolve(".countersign-" + UUID.randomUUID() + ".tmp");
        try {
            Files.write(temporary, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            if (Files.exists(file) && file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                Files.setPosixFilePermissions(temporary, Files.getPosixFilePermissions(file));
            }
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    private record Target(Workspace workspace, Path file, String shown, String content) {
    }
}
