package io.countersign.console.denials;

import static io.countersign.console.ConsoleFixtures.NOW;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.MovableClock;
import io.countersign.console.common.ConnectionState;
import io.countersign.console.common.Messages;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.EventType;
import io.countersign.service.EventService;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How the denial browser turns what a person picked into the filter it asks the service for. */
class DenialsViewModelTest {
    /** The executor runs nothing, so the service is never asked; only the filter is under test. */
    private final DenialsViewModel denials = new DenialsViewModel(noCalls(), Actor.of("sam", Role.SUPERVISOR),
            work -> {
            }, Messages.forLocale(Locale.ENGLISH), new ConnectionState(), new MovableClock(NOW), runId -> {
            });

    private static EventService noCalls() {
        return (EventService) Proxy.newProxyInstance(EventService.class.getClassLoader(),
                new Class<?>[] {EventService.class}, (proxy, method, arguments) -> {
                    throw new AssertionError("the service was called: " + method.getName());
                });
    }

    private EventFilter filter() {
        return denials.filterProperty().get();
    }

    @Test
    void theLastSevenDaysAreShownFirst() {
        denials.refresh();

        assertThat(filter().from()).isEqualTo(NOW.minus(Duration.ofDays(7)));
        assertThat(filter().until()).isNull();
    }

    @Test
    void aPresetReachesBackFromNowAndAllTimeHasNoBounds() {
        denials.filters().rangeProperty().set(TimeRange.LAST_HOUR);
        Instant hourAgo = filter().from();
        denials.filters().rangeProperty().set(TimeRange.ALL);

        assertThat(hourAgo).isEqualTo(NOW.minus(Duration.ofHours(1)));
        assertThat(filter().from()).isNull();
        assertThat(filter().until()).isNull();
    }

    @Test
    void pickedDaysCoverWholeDaysInTheConsolesZone() {
        denials.filters().fromProperty().set(LocalDate.of(2026, 2, 1));
        denials.filters().toProperty().set(LocalDate.of(2026, 2, 3));

        assertThat(denials.filters().rangeProperty().get()).isEqualTo(TimeRange.CUSTOM);
        assertThat(filter().from()).isEqualTo(Instant.parse("2026-02-01T00:00:00Z"));
        assertThat(filter().until()).isEqualTo(Instant.parse("2026-02-04T00:00:00Z"));
    }

    @Test
    void aPresetForgetsPickedDays() {
        denials.filters().fromProperty().set(LocalDate.of(2026, 2, 1));

        denials.filters().rangeProperty().set(TimeRange.LAST_30_DAYS);

        assertThat(denials.filters().fromProperty().get()).isNull();
        assertThat(denials.filters().rangeProperty().get()).isEqualTo(TimeRange.LAST_30_DAYS);
        assertThat(filter().from()).isEqualTo(NOW.minus(Duration.ofDays(30)));
    }

    @Test
    void everyFilterGoesIntoTheQueryTrimmedAndBlankMeansAny() {
        denials.filters().typeProperty().set(EventType.TOOL_DENIED);
        denials.filters().ruleProperty().set("no-secrets");
        denials.filters().reasonProperty().set("secret_path");
        denials.filters().toolProperty().set(" fs_read ");
        denials.filters().agentProperty().set("release-notes-bot");
        denials.filters().personProperty().set("   ");
        denials.filters().searchProperty().set(" secret ");

        assertThat(filter()).isEqualTo(EventFilter.all().between(NOW.minus(Duration.ofDays(7)), null)
                .ofTypes(Set.of(EventType.TOOL_DENIED)).withRuleId("no-secrets").withReasonCode("secret_path")
                .withToolName("fs_read").withAgentConfiguration("release-notes-bot").withText("secret"));
    }

    @Test
    void clearingTheFiltersKeepsTheTimeRange() {
        denials.filters().rangeProperty().set(TimeRange.LAST_DAY);
        denials.filters().ruleProperty().set("no-secrets");
        denials.filters().searchProperty().set("secret");

        denials.filters().clearFilters();

        assertThat(filter()).isEqualTo(EventFilter.all().between(NOW.minus(Duration.ofDays(1)), null));
    }

    @Test
    void onlyAdminsMayPurge() {
        DenialsViewModel admin = new DenialsViewModel(noCalls(), Actor.of("ada", Role.ADMIN), work -> {
        }, Messages.forLocale(Locale.ENGLISH), new ConnectionState(), new MovableClock(NOW), runId -> {
        });

        assertThat(admin.purge().mayPurge()).isTrue();
        assertThat(denials.purge().mayPurge()).isFalse();
    }
}
