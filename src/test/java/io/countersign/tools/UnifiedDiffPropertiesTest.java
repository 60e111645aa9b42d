package io.countersign.tools;

import static org.assertj.core.api.Assertions.assertThat;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The diff is correct (it turns the old text into the new) and minimal (no more changed lines than needed). */
class UnifiedDiffPropertiesTest {

    @Provide
    Arbitrary<String> texts() {
        // few distinct lines, so texts share many lines and the diff has real work to do
        Arbitrary<String> line = Arbitraries.of("a", "b", "c", "d", "");
        return line.list().ofMaxSize(14).flatMap(lines -> Arbitraries.of(true, false)
                .map(finalNewline -> String.join("\n", lines) + (finalNewline && !lines.isEmpty() ? "\n" : "")));
    }

    @Property(tries = 1_000)
    void applyingTheDiffToTheOldTextGivesTheNewText(@ForAll("texts") String before, @ForAll("texts") String after) {
        List<String> diff = UnifiedDiff.of("a/f", "b/f", before, after);

        assertThat(Patches.apply(before, diff)).isEqualTo(after);
    }

    @Property(tries = 1_000)
    void theDiffChangesNoMoreLinesThanTheLongestCommonSubsequenceLeaves(@ForAll("texts") String before,
                                                                        @ForAll("texts") String after) {
        List<String> oldLines = UnifiedDiff.lines(before);
        List<String> newLines = UnifiedDiff.lines(after);
        long changed = UnifiedDiff.of("a/f", "b/f", before, after).stream()
                .skip(2)
                .filter(line -> line.startsWith("-") || line.startsWith("+"))
                .count();

        assertThat(changed).isEqualTo(oldLines.size() + newLines.size() - 2L * lcs(oldLines, newLines));
    }

    private static int lcs(List<String> a, List<String> b) {
        int[][] length = new int[a.size() + 1][b.size() + 1];
        for (int i = 1; i <= a.size(); i++) {
            for (int j = 1; j <= b.size(); j++) {
                length[i][j] = a.get(i - 1).equals(b.get(j - 1))
                        ? length[i - 1][j - 1] + 1
                        : Math.max(length[i - 1][j], length[i][j - 1]);
            }
        }
        return length[a.size()][b.size()];
    }
}
