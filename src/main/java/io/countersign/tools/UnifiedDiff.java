package io.countersign.tools;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A line diff in unified format ({@code diff -u}): a {@code ---}/{@code +++} header, then hunks with
 * {@value #CONTEXT} lines of context. Lines are compared with their line break, so a missing final newline is
 * a change and is marked the way {@code diff} marks it.
 *
 * <p>The edit script comes from Myers' algorithm on the lines between the common prefix and suffix. Past
 * {@value #MAX_EDITS} edits the search stops and the rest is shown as one replacement: still a correct diff,
 * only not the shortest, and the cost stays bounded for any file.
 */
final class UnifiedDiff {
    static final int CONTEXT = 3;
    static final int MAX_EDITS = 1_000;
    static final String NO_NEWLINE = "\\ No newline at end of file";

    private UnifiedDiff() {
    }

    /** The diff from {@code before} to {@code after}; empty when they are equal. */
    static List<String> of(String oldLabel, String newLabel, String before, String after) {
        List<String> oldLines = lines(before);
        List<String> newLines = lines(after);
        List<Edit> edits = edits(oldLines, newLines);
        if (edits.stream().allMatch(edit -> edit.kind == Kind.KEEP)) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        out.add("--- " + oldLabel);
        out.add("+++ " + newLabel);
        int start = 0;
        while ((start = nextChange(edits, start)) >= 0) {
            int end = start;
            for (int next = nextChange(edits, end + 1); next >= 0 && next - end - 1 <= 2 * CONTEXT;
                 next = nextChange(edits, end + 1)) {
                end = next;
            }
            appendHunk(out, edits.subList(Math.max(0, start - CONTEXT), Math.min(edits.size(), end + CONTEXT + 1)),
                    oldLines, newLines);
            start = end + 1;
        }
        return out;
    }

    /** The lines of a text, each with its line break; only the last may lack one. */
    static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        int from = 0;
        while (from < text.length()) {
            int end = text.indexOf('\n', from);
            int next = end < 0 ? text.length() : end + 1;
            lines.add(text.substring(from, next));
            from = next;
        }
        return lines;
    }

    private static int nextChange(List<Edit> edits, int from) {
        for (int i = from; i < edits.size(); i++) {
            if (edits.get(i).kind != Kind.KEEP) {
                return i;
            }
        }
        return -1;
    }

    private static void appendHunk(List<String> out, List<Edit> hunk, List<String> oldLines, List<String> newLines) {
        int oldCount = (int) hunk.stream().filter(edit -> edit.kind != Kind.INSERT).count();
        int newCount = (int) hunk.stream().filter(edit -> edit.kind != Kind.DELETE).count();
        Edit first = hunk.get(0);
        // an empty range is named by the line before it, as diff -u does
        int oldStart = oldCount == 0 ? first.oldIndex : first.oldIndex + 1;
        int newStart = newCount == 0 ? first.newIndex : first.newIndex + 1;
        out.add("@@ -" + oldStart + "," + oldCount + " +" + newStart + "," + newCount + " @@");
        for (Edit edit : hunk) {
            String line = switch (edit.kind) {
                case KEEP -> " " + oldLines.get(edit.oldIndex);
                case DELETE -> "-" + oldLines.get(edit.oldIndex);
                case INSERT -> "+" + newLines.get(edit.newIndex);
            };
            if (line.endsWith("\n")) {
                out.add(line.substring(0, line.length() - 1));
            } else {
                out.add(line);
                out.add(NO_NEWLINE);
            }
        }
    }

    /** The edit script: every old and every new line once, in order, each kept, deleted or inserted. */
    private static List<Edit> edits(List<String> a, List<String> b) {
        int prefix = 0;
        while (prefix < a.size() && prefix < b.size() && a.get(prefix).equals(b.get(prefix))) {
            prefix++;
        }
        int suffix = 0;
        while (suffix < a.size() - prefix && suffix < b.size() - prefix
                && a.get(a.size() - 1 - suffix).equals(b.get(b.size() - 1 - suffix))) {
            suffix++;
        }
        List<Edit> edits = new ArrayList<>();
        for (int i = 0; i < prefix; i++) {
            edits.add(new Edit(Kind.KEEP, i, i));
        }
        List<String> oldMiddle = a.subList(prefix, a.size() - suffix);
        List<String> newMiddle = b.subList(prefix, b.size() - suffix);
        List<Edit> middle = myers(oldMiddle, newMiddle);
        if (middle == null) {
            middle = replacement(oldMiddle.size(), newMiddle.size());
        }
        for (Edit edit : middle) {
            edits.add(new Edit(edit.kind, edit.oldIndex + prefix, edit.newIndex + prefix));
        }
        for (int i = 0; i < suffix; i++) {
            edits.add(new Edit(Kind.KEEP, a.size() - suffix + i, b.size() - suffix + i));
        }
        return edits;
    }

    private static List<Edit> replacement(int oldSize, int newSize) {
        List<Edit> edits = new ArrayList<>();
        for (int i = 0; i < oldSize; i++) {
            edits.add(new Edit(Kind.DELETE, i, 0));
        }
        for (int j = 0; j < newSize; j++) {
            edits.add(new Edit(Kind.INSERT, oldSize, j));
        }
        return edits;
    }

    /**
     * Myers' greedy shortest edit script, or null past {@value #MAX_EDITS} edits. {@code v[k + offset]} is the
     * furthest x reached on diagonal k = x - y; {@code trace.get(d)} keeps diagonals -d..d after round d.
     */
    private static List<Edit> myers(List<String> a, List<String> b) {
        int n = a.size();
        int m = b.size();
        int limit = Math.min(n + m, MAX_EDITS);
        int offset = limit + 1;
        int[] v = new int[2 * limit + 3];
        List<int[]> trace = new ArrayList<>();
        for (int d = 0; d <= limit; d++) {
            for (int k = -d; k <= d; k += 2) {
                int x = takesInsert(v, offset, d, k) ? v[k + 1 + offset] : v[k - 1 + offset] + 1;
                int y = x - k;
                while (x < n && y < m && a.get(x).equals(b.get(y))) {
                    x++;
                    y++;
                }
                v[k + offset] = x;
                if (x >= n && y >= m) {
                    trace.add(slice(v, offset, d));
                    return backtrack(trace, n, m);
                }
            }
            trace.add(slice(v, offset, d));
        }
        return null;
    }

    /** Whether diagonal k is best reached by a step down (an insert) from diagonal k + 1. */
    private static boolean takesInsert(int[] v, int offset, int d, int k) {
        return k == -d || (k != d && v[k - 1 + offset] < v[k + 1 + offset]);
    }

    private static int[] slice(int[] v, int offset, int d) {
        int[] slice = new int[2 * d + 1];
        System.arraycopy(v, offset - d, slice, 0, slice.length);
        return slice;
    }

    private static List<Edit> backtrack(List<int[]> trace, int n, int m) {
        List<Edit> reversed = new ArrayList<>();
        int x = n;
        int y = m;
        for (int d = trace.size() - 1; d > 0; d--) {
            int[] previous = trace.get(d - 1);
            int previousOffset = d - 1;
            int k = x - y;
            boolean insert = takesInsert(previous, previousOffset, d, k);
            int previousK = insert ? k + 1 : k - 1;
            int previousX = previous[previousK + previousOffset];
            int previousY = previousX - previousK;
            int stepX = insert ? previousX : previousX + 1;
            while (x > stepX) {
                x--;
                y--;
                reversed.add(new Edit(Kind.KEEP, x, y));
            }
            reversed.add(new Edit(insert ? Kind.INSERT : Kind.DELETE, previousX, previousY));
            x = previousX;
            y = previousY;
        }
        while (x > 0) {
            x--;
            y--;
            reversed.add(new Edit(Kind.KEEP, x, y));
        }
        Collections.reverse(reversed);
        return reversed;
    }

    private enum Kind {
        KEEP,
        DELETE,
        INSERT
    }

    /**
     * One step of the script at old line {@code oldIndex} and new line {@code newIndex} (0-based): a kept line
     * is at both, a deleted line at {@code oldIndex}, an inserted line at {@code newIndex}.
     */
    private record Edit(Kind kind, int oldIndex, int newIndex) {
    }
}
