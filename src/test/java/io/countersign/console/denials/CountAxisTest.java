package io.countersign.console.denials;

import static org.assertj.core.api.Assertions.assertThat;
import org.junit.jupiter.api.Test;

class CountAxisTest {

    @Test
    void smallCountsStepByOne() {
        assertThat(CountAxis.step(0)).isEqualTo(1);
        assertThat(CountAxis.step(3)).isEqualTo(1);
        assertThat(CountAxis.step(5)).isEqualTo(1);
        assertThat(CountAxis.upperBound(3, 1)).isEqualTo(4);
    }

    @Test
    void stepsAreOneTwoOrFiveTimesAPowerOfTen() {
        assertThat(CountAxis.step(9)).isEqualTo(2);
        assertThat(CountAxis.step(23)).isEqualTo(5);
        assertThat(CountAxis.step(50)).isEqualTo(10);
        assertThat(CountAxis.step(51)).isEqualTo(20);
        assertThat(CountAxis.step(1_234)).isEqualTo(500);
        assertThat(CountAxis.step(987_654)).isEqualTo(200_000);
    }

    @Test
    void theBoundIsTheFirstStepAboveTheLargestCount() {
        assertThat(CountAxis.upperBound(1_234, 500)).isEqualTo(1_500);
        assertThat(CountAxis.upperBound(1_000, 500)).isEqualTo(1_500);
        assertThat(CountAxis.upperBound(987_654, 200_000)).isEqualTo(1_000_000);
    }

    @Test
    void nothingCountedStillShowsOneStep() {
        assertThat(CountAxis.upperBound(0, CountAxis.step(0))).isEqualTo(1);
    }

    @Test
    void everyBoundTakesAtMostSixSteps() {
        for (long largest = 0; largest < 200_000; largest += 7) {
            long step = CountAxis.step(largest);
            long ticks = CountAxis.upperBound(largest, step) / step;
            assertThat(ticks).as("ticks for %d", largest).isBetween(1L, 6L);
        }
    }
}
