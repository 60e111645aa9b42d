package io.countersign.model;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HttpModelOptionsTest {
    private static final Duration SECOND = Duration.ofSeconds(1);

    @Test
    void zeroTimeoutIsRefused() {
        assertThatThrownBy(() -> new HttpModelOptions(SECOND, Duration.ZERO, SECOND, 2, SECOND))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("readTimeout must be positive");
    }

    @Test
    void negativeBackoffIsRefused() {
        assertThatThrownBy(() -> new HttpModelOptions(SECOND, SECOND, SECOND, 2, Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("baseBackoff must be positive");
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 11})
    void retriesOutsideTheBoundAreRefused(int retries) {
        assertThatThrownBy(() -> new HttpModelOptions(SECOND, SECOND, SECOND, retries, SECOND))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxRetries must be between 0 and 10");
    }
}
