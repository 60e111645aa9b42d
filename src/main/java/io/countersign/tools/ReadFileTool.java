package io.countersign.tools;

import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.FixedTool;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolResult;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;

/** {@code fs_read}: the text of a UTF-8 file in the workspace; a long text is cut by {@link ToolResult}. */
public final class ReadFileTool extends FixedTool {
    public static final String NAME = "fs_read";

    private static final StringParameters PARAMETERS = StringParameters.builder()
            .required("path", "File to read, relative to the workspace folder.")
            .build();

    public ReadFileTool() {
        super(NAME,
                "Read a UTF-8 text file in the workspace and return its content unchanged. Binary files are refused;"
                + " only the first " + ToolResult.MAX_BYTES + " bytes of a long file are returned.",
                PARAMETERS.schema(), ToolEffect.READ, DataClass.SOURCE_CODE, "files");
    }

    @Override
    public ToolResult execute(ToolCallRequest request) throws IOException {
        try {
            String requested = PARAMETERS.read(request.arguments()).required("path");
            Workspace workspace = Workspace.of(request.workspace());
            Path file = workspace.resolve(requested);
            String shown = workspace.display(file);
            if (!Files.exists(file)) {
                return ToolResult.failure(shown + " does not exist");
            }
            if (Files.isDirectory(file)) {
                return ToolResult.failure(shown + " is a folder, not a file; use fs_list to see what it holds");
            }
            if (!Files.isRegularFile(file)) {
                return ToolResult.failure(shown + " is not a regular file");
            }
            return ToolResult.ok(workspace.readText(file));
        } catch (Refusal refusal) {
            return ToolResult.failure(refusal.getMessage());
        } catch (AccessDeniedException e) {
            return ToolResult.failure("the file system denied access to this path");
        }
    }
}
