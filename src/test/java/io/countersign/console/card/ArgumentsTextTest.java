package io.countersign.console.card;

import static org.assertj.core.api.Assertions.assertThat;
import org.junit.jupiter.api.Test;

class ArgumentsTextTest {
    @Test
    void aTextOfSeveralLinesShowsAsTextUnderItsName() {
        assertThat(ArgumentsText.of("{\"path\":\"NOTES.md\",\"content\":\"# Notes\\n## 2.4\\n- faster sync\"}"))
                .isEqualTo("path: \"NOTES.md\"\ncontent:\n  # Notes\n  ## 2.4\n  - faster sync");
    }

    @Test
    void numbersAndNestedValuesKeepTheirJsonNestedOnesPrettyPrinted() {
        assertThat(ArgumentsText.of("{\"priority\":2,\"tags\":[\"a\",\"b\"],\"none\":[]}"))
                .isEqualTo("priority: 2\ntags:\n  [ \"a\", \"b\" ]\nnone: []");
    }

    @Test
    void argumentsThatAreNoObjectShowAsTheyCame() {
        assertThat(ArgumentsText.of("not json")).isEqualTo("not json");
        assertThat(ArgumentsText.of("[1,2]")).isEqualTo("[1,2]");
        assertThat(ArgumentsText.of("{}")).isEqualTo("{}");
    }
}
