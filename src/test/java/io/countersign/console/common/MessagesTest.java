package io.countersign.console.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import java.time.Duration;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class MessagesTest {
    private final Messages messages = Messages.forLocale(Locale.ENGLISH);

    @Test
    void elapsedTimeIsShortEnoughForAList() {
        assertThat(messages.elapsed(Duration.ofSeconds(40))).isEqualTo("< 1 min");
        assertThat(messages.elapsed(Duration.ofMinutes(4))).isEqualTo("4 min");
        assertThat(messages.elapsed(Duration.ofMinutes(125))).isEqualTo("2 h 5 min");
        assertThat(messages.elapsed(Duration.ofHours(73))).isEqualTo("3 d 1 h");
    }

    @Test
    void aClockThatRunsBehindShowsUnderAMinute() {
        assertThat(messages.elapsed(Duration.ofMinutes(-3))).isEqualTo("< 1 min");
    }

    @Test
    void aMissingTextNamesItsKey() {
        assertThatThrownBy(() -> messages.get("no.such.key"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no.such.key");
    }

    @Test
    void aShortRunIdKeepsEightCharacters() {
        assertThat(messages.shortRunId("7f3a9c21-1234-5678")).isEqualTo("7f3a9c21");
        assertThat(messages.shortRunId("run-1")).isEqualTo("run-1");
    }
}
