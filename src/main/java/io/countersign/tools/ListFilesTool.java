package io.countersign.tools;

import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.FixedTool;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolResult;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.stream.Stream;

/** {@code fs_list}: the entries of a folder in the workspace, sorted by name, with their kind and size. */
public final class ListFilesTool extends FixedTool {
    public static final String NAME = "fs_list";
    /** More entries than this are counted, not listed. */
    public static final int MAX_ENTRIES = 1_000;

    private static final StringParameters PARAMETERS = StringParameters.builder()
            .optional("path", "Folder to list, relative to the workspace folder. Defaults to \".\", the workspace"
                    + " folder itself.")
            .build();

    public ListFilesTool() {
        super(NAME,
                "List the entries of a folder in the workspace, sorted by name. Each line gives the entry's name,"
                + " its kind (dir, file or link) and, for a file, its size in bytes. At most " + MAX_ENTRIES
                + " entries are listed.",
                PARAMETERS.schema(), ToolEffect.READ, DataClass.SOURCE_CODE, "files");
    }

    @Override
    public ToolResult execute(ToolCallRequest request) throws IOException {
        try {
            String requested = PARAMETERS.read(request.arguments()).optional("path").orElse(".");
            Workspace workspace = Workspace.of(request.workspace());
            Path folder = workspace.resolve(requested);
            String shown = workspace.display(folder);
            if (!Files.exists(folder)) {
                return ToolResult.failure(shown + " does not exist");
            }
            if (!Files.isDirectory(folder)) {
                return ToolResult.failure(shown + " is a file, not a folder; use fs_read to read it");
            }
            return ToolResult.ok(listing(folder, shown));
        } catch (Refusal refusal) {
            return ToolResult.failure(refusal.getMessage());
        } catch (AccessDeniedException e) {
            return ToolResult.failure("the file system denied access to this path");
        }
    }

    private static String listing(Path folder, String shown) throws IOException {
        List<Path> entries;
        try (Stream<Path> children = Files.list(folder)) {
            entries = children.sorted().toList();
        }
        if (entries.isEmpty()) {
            return shown + " is empty";
        }
        StringBuilder out = new StringBuilder(shown).append(" (").append(entries.size())
                .append(entries.size() == 1 ? " entry" : " entries").append("):");
        for (Path entry : entries.subList(0, Math.min(entries.size(), MAX_ENTRIES))) {
            out.append('\n').append(describe(entry));
        }
        if (entries.size() > MAX_ENTRIES) {
            out.append("\n[").append(entries.size() - MAX_ENTRIES).append(" more entries not listed; only the first ")
                    .append(MAX_ENTRIES).append(" are shown]");
        }
        return out.toString();
    }

    private static String describe(Path entry) throws IOException {
        // a link is reported as a link: following it could reveal what lies outside the workspace
        BasicFileAttributes attributes = Files.readAttributes(entry, BasicFileAttributes.class,
                LinkOption.NOFOLLOW_LINKS);
        String name = entry.getFileName().toString();
        if (attributes.isDirectory()) {
            return name + "\tdir";
        }
        if (attributes.isSymbolicLink()) {
            return name + "\tlink";
        }
        if (attributes.isRegularFile()) {
            return name + "\tfile\t" + attributes.size() + (attributes.size() == 1 ? " byte" : " bytes");
        }
        return name + "\tother";
    }
}
