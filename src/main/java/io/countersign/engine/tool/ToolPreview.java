package io.countersign.engine.tool;

import java.util.ArrayList;
import java.util.List;

/**
 * What a call would do, at most {@value #MAX_LINES} lines of at most {@value #MAX_LINE_LENGTH} characters.
 * {@link #clipped} makes a preview of any text, marking what it had to leave out.
 */
public record ToolPreview(List<String> lines) {
    public static final int MAX_LINES = 20;
    public static final int MAX_LINE_LENGTH = 500;

    public ToolPreview {
        lines = List.copyOf(lines);
        if (lines.size() > MAX_LINES) {
            throw new IllegalArgumentException("a preview has at most " + MAX_LINES + " lines, got " + lines.size());
        }
        for (String line : lines) {
            if (line.length() > MAX_LINE_LENGTH) {
                throw new IllegalArgumentException("a preview line has at most " + MAX_LINE_LENGTH
                        + " characters, got " + line.length());
            }
        }
    }

    /** A preview of the given lines, cutting long lines and replacing the overflow with a count. */
    public static ToolPreview clipped(List<String> source) {
        List<String> lines = new ArrayList<>();
        int keep = source.size() <= MAX_LINES ? source.size() : MAX_LINES - 1;
        for (int i = 0; i < keep; i++) {
            String line = source.get(i);
            lines.add(line.length() <= MAX_LINE_LENGTH ? line : line.substring(0, MAX_LINE_LENGTH - 1) + "…");
        }
        if (keep < source.size()) {
            lines.add("… " + (source.size() - keep) + " more lines");
        }
        return new ToolPreview(lines);
    }

    public String text() {
        return String.join("\n", lines);
    }
}
