package io.countersign.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Applies a unified diff the strict way {@code patch} would: every context and removed line must match. */
final class Patches {
    private static final Pattern HUNK = Pattern.compile("@@ -(\\d+),(\\d+) \\+(\\d+),(\\d+) @@");

    private Patches() {
    }

    static String apply(String before, List<String> diff) {
        if (diff.isEmpty()) {
            return before;
        }
        List<String> source = UnifiedDiff.lines(before);
        List<String> result = new ArrayList<>();
        int next = 0;
        int i = 2;
        while (i < diff.size()) {
            Matcher hunk = HUNK.matcher(diff.get(i++));
            if (!hunk.matches()) {
                throw new AssertionError("expected a hunk header at line " + i + ": " + diff.get(i - 1));
            }
            int oldStart = Integer.parseInt(hunk.group(1));
            int oldCount = Integer.parseInt(hunk.group(2));
            int newCount = Integer.parseInt(hunk.group(4));
            int from = oldCount == 0 ? oldStart : oldStart - 1;
            if (from < next) {
                throw new AssertionError("hunks overlap or go backwards at " + hunk.group());
            }
            result.addAll(source.subList(next, from));
            next = from;
            int removed = 0;
            int added = 0;
            while (i < diff.size() && !diff.get(i).startsWith("@@")) {
                String line = diff.get(i++);
                boolean lastOfFile = i < diff.size() && diff.get(i).equals(UnifiedDiff.NO_NEWLINE);
                if (lastOfFile) {
                    i++;
                }
                String text = line.substring(1) + (lastOfFile ? "" : "\n");
                char kind = line.charAt(0);
                if (kind == ' ' || kind == '-') {
                    if (!source.get(next).equals(text)) {
                        throw new AssertionError("line " + (next + 1) + " is " + source.get(next) + ", not " + text);
                    }
                    next++;
                    removed++;
                }
                if (kind == ' ' || kind == '+') {
                    result.add(text);
                    added++;
                }
            }
            if (removed != oldCount || added != newCount) {
                throw new AssertionError("hunk " + hunk.group() + " has " + removed + " old and " + added + " new");
            }
        }
        result.addAll(source.subList(next, source.size()));
        return String.join("", result);
    }
}
