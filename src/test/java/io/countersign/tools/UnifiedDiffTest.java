package io.countersign.tools;

import static org.assertj.core.api.Assertions.assertThat;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class UnifiedDiffTest {

    private static List<String> diff(String before, String after) {
        return UnifiedDiff.of("a/f.txt", "b/f.txt", before, after);
    }

    private static String numbered(int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(i -> "line " + i + "\n").collect(Collectors.joining());
    }

    @Test
    void equalTextsHaveNoDiff() {
        assertThat(diff("a\nb\n", "a\nb\n")).isEmpty();
        assertThat(diff("", "")).isEmpty();
    }

    @Test
    void insertedLineComesWithThreeLinesOfContextOnEachSide() {
        String before = numbered(1, 10);
        String after = numbered(1, 5) + "new\n" + numbered(6, 10);

        assertThat(diff(before, after)).containsExactly(
                "--- a/f.txt",
                "+++ b/f.txt",
                "@@ -3,6 +3,7 @@",
                " line 3",
                " line 4",
                " line 5",
                "+new",
                " line 6",
                " line 7",
                " line 8");
    }

    @Test
    void deletedLineIsMarkedWithAMinus() {
        assertThat(diff("a\nb\nc\n", "a\nc\n")).containsExactly(
                "--- a/f.txt",
                "+++ b/f.txt",
                "@@ -1,3 +1,2 @@",
                " a",
                "-b",
                " c");
    }

    @Test
    void changedLineIsADeletionFollowedByAnInsertion() {
        assertThat(diff("a\nb\nc\n", "a\nB\nc\n")).containsExactly(
                "--- a/f.txt",
                "+++ b/f.txt",
                "@@ -1,3 +1,3 @@",
                " a",
                "-b",
                "+B",
                " c");
    }

    @Test
    void newFileIsAllInsertionsFromLineZero() {
        assertThat(UnifiedDiff.of("/dev/null", "b/f.txt", "", "one\ntwo\n")).containsExactly(
                "--- /dev/null",
                "+++ b/f.txt",
                "@@ -0,0 +1,2 @@",
                "+one",
                "+two");
    }

    @Test
    void emptiedFileIsAllDeletionsToLineZero() {
        assertThat(diff("one\ntwo\n", "")).containsExactly(
                "--- a/f.txt",
                "+++ b/f.txt",
                "@@ -1,2 +0,0 @@",
                "-one",
                "-two");
    }

    @Test
    void insertionAtTheEndNamesTheLineBeforeAnEmptyRange() {
        assertThat(diff("a\n", "a\nb\n")).containsExactly(
                "--- a/f.txt",
                "+++ b/f.txt",
                "@@ -1,1 +1,2 @@",
                " a",
                "+b");
    }

    @Test
    void addedFinalNewlineIsAChangeOfTheLastLine() {
        assertThat(diff("a\nb", "a\nb\n")).containsExactly(
                "--- a/f.txt",
                "+++ b/f.txt",
                "@@ -1,2 +1,2 @@",
                " a",
                "-b",
                UnifiedDiff.NO_NEWLINE,
                "+b");
    }

    @Test
    void removedFinalNewlineIsMarkedOnTheNewLine() {
        assertThat(diff("a\nb\n", "a\nb")).containsExactly(
                "--- a/f.txt",
                "+++ b/f.txt",
                "@@ -1,2 +1,2 @@",
                " a",
                "-b",
                "+b",
                UnifiedDiff.NO_NEWLINE);
    }

    @Test
    void unchangedLastLineWithoutNewlineIsMarkedAsContext() {
        assertThat(diff("a\nb", "A\nb")).containsExactly(
                "--- a/f.txt",
                "+++ b/f.txt",
                "@@ -1,2 +1,2 @@",
                "-a",
                "+A",
                " b",
                UnifiedDiff.NO_NEWLINE);
    }

    @Test
    void distantChangesMakeSeparateHunks() {
        String before = numbered(1, 20);
        String after = before.replace("line 2\n", "two\n").replace("line 19\n", "nineteen\n");

        assertThat(diff(before, after)).containsExactly(
                "--- a/f.txt",
                "+++ b/f.txt",
                "@@ -1,5 +1,5 @@",
                " line 1",
                "-line 2",
                "+two",
                " line 3",
                " line 4",
                " line 5",
                "@@ -16,5 +16,5 @@",
                " line 16",
                " line 17",
                " line 18",
                "-line 19",
                "+nineteen",
                " line 20");
    }

    @Test
    void changesAtMostSixLinesApartShareAHunk() {
        String before = numbered(1, 20);
        String after = before.replace("line 5\n", "five\n").replace("line 12\n", "twelve\n");

        List<String> diff = diff(before, after);

        assertThat(diff).filteredOn(line -> line.startsWith("@@")).containsExactly("@@ -2,14 +2,14 @@");
    }

    @Test
    void changesSevenLinesApartMakeTwoHunks() {
        String before = numbered(1, 20);
        String after = before.replace("line 5\n", "five\n").replace("line 13\n", "thirteen\n");

        List<String> diff = diff(before, after);

        assertThat(diff).filteredOn(line -> line.startsWith("@@"))
                .containsExactly("@@ -2,7 +2,7 @@", "@@ -10,7 +10,7 @@");
    }

    @Test
    void movedBlockKeepsTheLongestCommonRun() {
        assertThat(diff("a\nb\nc\nd\n", "b\nc\nd\na\n")).containsExactly(
                "--- a/f.txt",
                "+++ b/f.txt",
                "@@ -1,4 +1,4 @@",
                "-a",
                " b",
                " c",
                " d",
                "+a");
    }

    @Test
    void rewriteBeyondTheEditBudgetIsStillACorrectDiff() {
        String before = IntStream.range(0, UnifiedDiff.MAX_EDITS).mapToObj(i -> "old " + i + "\n")
                .collect(Collectors.joining());
        String after = IntStream.range(0, UnifiedDiff.MAX_EDITS).mapToObj(i -> "new " + i + "\n")
                .collect(Collectors.joining());

        List<String> diff = diff("same\n" + before + "same\n", "same\n" + after + "same\n");

        assertThat(Patches.apply("same\n" + before + "same\n", diff)).isEqualTo("same\n" + after + "same\n");
        assertThat(diff).filteredOn(line -> line.startsWith("-")).hasSize(UnifiedDiff.MAX_EDITS + 1);
    }
}
