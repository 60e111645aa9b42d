package io.countersign.tools;

import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.FixedTool;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolPreview;
import io.countersign.engine.tool.ToolResult;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@code fs_delete}: deletes a file, or an empty folder, in the workspace. A link is deleted itself, never what
 * it leads to.
 */
public final class DeleteFileTool extends FixedTool {
    public static final String NAME = "fs_delete";

    private static final StringParameters PARAMETERS = StringParameters.builder()
            .required("path", "File or empty folder to delete, relative to the workspace folder.")
            .build();

    public DeleteFileTool() {
        super(NAME,
                "Delete a file in the workspace, or a folder if it is empty. A folder that still holds entries is"
                + " not deleted; delete its entries first.",
                PARAMETERS.schema(), ToolEffect.WRITE, DataClass.SOURCE_CODE, "files");
    }

    @Override
    public ToolResult execute(ToolCallRequest request) throws IOException {
        try {
            Target target = target(request);
            boolean folder = Files.isDirectory(target.path(), LinkOption.NOFOLLOW_LINKS);
            try {
                Files.delete(target.path());
            } catch (DirectoryNotEmptyException e) {
                return ToolResult.failure(notEmpty(target.shown()));
            }
            return ToolResult.ok("deleted " + (folder ? "empty folder " : "") + target.shown());
        } catch (Refusal refusal) {
            return ToolResult.failure(refusal.getMessage());
        } catch (AccessDeniedException e) {
            return ToolResult.failure("the file system denied access to this path");
        }
    }

    @Override
    public Optional<ToolPreview> preview(ToolCallRequest request) {
        String line;
        try {
            line = what(target(request));
        } catch (Refusal refusal) {
            line = "this call will fail: " + refusal.getMessage();
        } catch (IOException e) {
            line = "delete a path that cannot be inspected; the deletion may fail";
        }
        return Optional.of(ToolPreview.clipped(List.of(line)));
    }

    private static String what(Target target) throws IOException, Refusal {
        Path path = target.path();
        if (Files.isSymbolicLink(path)) {
            // what the link leads to is neither read nor deleted
            return "delete link " + target.shown();
        }
        if (Files.isDirectory(path)) {
            try (Stream<Path> entries = Files.list(path)) {
                if (entries.findAny().isPresent()) {
                    throw new Refusal(notEmpty(target.shown()));
                }
            }
            return "delete empty folder " + target.shown();
        }
        try {
            return "delete " + target.shown() + " (" + target.workspace().readText(path).lines().count() + " lines)";
        } catch (Refusal notText) {
            return "delete " + target.shown() + " (" + Files.size(path) + " bytes, not text)";
        }
    }

    private static Target target(ToolCallRequest request) throws Refusal {
        String requested = PARAMETERS.read(request.arguments()).required("path");
        Workspace workspace = Workspace.of(request.workspace());
        Path path = workspace.resolveEntry(requested);
        String shown = workspace.display(path);
        if (workspace.isRoot(path)) {
            throw new Refusal("the workspace folder itself cannot be deleted");
        }
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            throw new Refusal(shown + " does not exist");
        }
        return new Target(workspace, path, shown);
    }

    private static String notEmpty(String shown) {
        return shown + " is a folder that is not empty; delete its entries first";
    }

    private record Target(Workspace workspace, Path path, String shown) {
    }
}
