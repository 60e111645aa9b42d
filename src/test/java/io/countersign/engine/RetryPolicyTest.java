package io.countersign.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** One retry policy for every caller: backoff that grows and caps, bounded jitter, and a peer's Retry-After. */
class RetryPolicyTest {
    private static final Instant NOW = Instant.parse("2026-12-06T10:00:00Z");
    private final RetryPolicy doubling = new RetryPolicy(Duration.ofMillis(500), 2, Duration.ofSeconds(30),
            RetryPolicy.UNLIMITED, 0);

    @Test
    void delaysGrowByTheMultiplierAndStopAtTheCap() {
        assertThat(List.of(1, 2, 3, 6, 7, 100, 5000)).extracting(doubling::delayBefore).containsExactly(
                Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(16),
                Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofSeconds(30));
    }

    @Test
    void jitterTakesAtMostItsShareOffTheBackoff() {
        RetryPolicy jittered = new RetryPolicy(Duration.ofSeconds(1), 2, Duration.ofSeconds(60), 3, 0.5);
        SplittableRandom random = new SplittableRandom(40);
        Set<Duration> seen = new HashSet<>();

        IntStream.range(0, 1000).forEach(i -> {
            Duration third = jittered.delayBefore(3, Optional.empty(), random);
            assertThat(third).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(4));
            seen.add(third);
        });

        assertThat(seen).hasSizeGreaterThan(100);
    }

    @Test
    void aPeersRetryAfterTakesThePlaceOfTheBackoffWithoutJitterButWithinTheCap() {
        RetryPolicy jittered = new RetryPolicy(Duration.ofSeconds(1), 2, Duration.ofSeconds(60), 3, 0.5);

        assertThat(jittered.delayBefore(1, Optional.of(Duration.ofSeconds(7)))).isEqualTo(Duration.ofSeconds(7));
        assertThat(jittered.delayBefore(1, Optional.of(Duration.ofHours(2)))).isEqualTo(Duration.ofSeconds(60));
        assertThat(jittered.delayBefore(1, Optional.of(Duration.ofSeconds(-3)))).isEqualTo(Duration.ZERO);
    }

    @Test
    void attemptsEndAtTheLimitUnlessThereIsNone() {
        RetryPolicy three = new RetryPolicy(Duration.ofSeconds(1), 2, Duration.ofSeconds(60), 3, 0);

        assertThat(List.of(1, 2, 3)).extracting(three::allowsAnother).containsExactly(true, true, false);
        assertThat(doubling.allowsAnother(1_000_000)).isTrue();
    }

    @Test
    void aPolicyThatCannotWorkIsRefusedAtConstruction() {
        assertThatThrownBy(() -> new RetryPolicy(Duration.ZERO, 2, Duration.ofSeconds(1), 1, 0))
                .hasMessageContaining("must be positive");
        assertThatThrownBy(() -> new RetryPolicy(Duration.ofSeconds(1), 0.5, Duration.ofSeconds(1), 1, 0))
                .hasMessageContaining("at least 1");
        assertThatThrownBy(() -> new RetryPolicy(Duration.ofSeconds(1), 2, Duration.ofSeconds(1), 1, 1.5))
                .hasMessageContaining("from 0 to 1");
    }

    @Test
    void retryAfterReadsSecondsAndEveryFormOfHttpDate() {
        assertThat(RetryAfter.parse(" 120 ", null, NOW)).hasValue(Duration.ofMinutes(2));
        assertThat(RetryAfter.parse("Sun, 06 Dec 2026 10:00:30 GMT", null, NOW)).hasValue(Duration.ofSeconds(30));
        assertThat(RetryAfter.parse("Sunday, 06-Dec-26 10:00:30 GMT", null, NOW)).hasValue(Duration.ofSeconds(30));
        assertThat(RetryAfter.parse("Sun Dec  6 10:00:30 2026", null, NOW)).hasValue(Duration.ofSeconds(30));
    }

    @Test
    void retryAfterDatesAreMeasuredOnThePeersClockWhenItSendsOne() {
        assertThat(RetryAfter.parse("Sun, 06 Dec 2026 10:05:30 GMT", "Sun, 06 Dec 2026 10:05:00 GMT", NOW))
                .hasValue(Duration.ofSeconds(30));
        assertThat(RetryAfter.parse("Sun, 06 Dec 2026 09:00:00 GMT", null, NOW)).hasValue(Duration.ZERO);
    }

    @Test
    void aRetryAfterThatCannotBeReadIsIgnoredAndTheBackoffHolds() {
        for (String bad : new String[] {null, "", "soon", "-5", "1.5", "99999999999999",
                "Sun, 32 Dec 2026 10:00 GMT"}) {
            Optional<Duration> parsed = RetryAfter.parse(bad, null, NOW);
            assertThat(parsed).as(bad).isEmpty();
            assertThat(doubling.delayBefore(2, parsed)).isEqualTo(Duration.ofSeconds(1));
        }
    }
}
