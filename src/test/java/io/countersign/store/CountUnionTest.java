package io.countersign.store;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.event.EventFilter;
import java.sql.SQLException;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * How a count is split into the SELECTs of its union: whole days from the daily counts, whole hours about them
 * from the hourly ones, the partial hours at the edges and what the counts do not hold from the events. No
 * database: a filter without a text needs none to be planned.
 */
class CountUnionTest {
    private static final Instant MONDAY_10_15 = Instant.parse("2026-03-02T10:15:00Z");
    private static final Instant THURSDAY_05_30 = Instant.parse("2026-03-05T05:30:00Z");

    @Test
    void aFilterWithoutBoundsAddsUpTheDailyCountsAlone() throws SQLException {
        CountUnion union = plan(EventFilter.all(), CountTables.Unit.values());

        assertThat(union.selects()).containsExactly("counts governance_event_code_day_counts");
        assertThat(union.parameters()).isEmpty();
    }

    @Test
    void aRangeTakesWholeDaysFromTheDailyCountsTheHoursAboutThemFromTheHourlyAndItsEdgesFromTheEvents()
            throws SQLException {
        CountUnion union = plan(EventFilter.all().between(MONDAY_10_15, THURSDAY_05_30), CountTables.Unit.values());

        assertThat(union.selects()).containsExactly(
                "events WHERE event_time >= ? AND event_time < ?",
                "events WHERE event_time >= ? AND event_time < ?",
                "counts governance_event_code_day_counts",
                "counts governance_event_code_counts",
                "counts governance_event_code_counts");
        long firstWholeHour = CountTables.hourOf(Nanos.of(MONDAY_10_15)) + 1;
        long lastHour = CountTables.hourOf(Nanos.of(THURSDAY_05_30));
        assertThat(union.parameters()).containsExactly(
                Nanos.of(MONDAY_10_15), Nanos.of(CountTables.hourStart(firstWholeHour)),
                Nanos.of(CountTables.hourStart(lastHour)), Nanos.of(THURSDAY_05_30),
                CountTables.Unit.DAY.firstStartingFrom(firstWholeHour), CountTables.Unit.DAY.ofHour(lastHour),
                firstWholeHour, CountTables.Unit.DAY.firstHour(CountTables.Unit.DAY.firstStartingFrom(firstWholeHour)),
                CountTables.Unit.DAY.firstHour(CountTables.Unit.DAY.ofHour(lastHour)), lastHour);
    }

    @Test
    void aRangeWithinOneHourReadsTheEventsAlone() throws SQLException {
        CountUnion union = plan(EventFilter.all().between(MONDAY_10_15, MONDAY_10_15.plusSeconds(600)),
                CountTables.Unit.values());

        assertThat(union.selects()).containsExactly("events WHERE event_time >= ? AND event_time < ?");
    }

    @Test
    void aRunIsCountedFromItsEventsSinceTheCountsDoNotHoldRuns() throws SQLException {
        CountUnion union = plan(EventFilter.all().withRunId("run-7"), CountTables.Unit.values());

        assertThat(union.selects()).containsExactly("events WHERE run_id = ?");
        assertThat(union.parameters()).containsExactly("run-7");
    }

    @Test
    void withoutUnitsEverythingIsCountedFromTheEvents() throws SQLException {
        CountUnion union = plan(EventFilter.all().withActor("maria"), new CountTables.Unit[0]);

        assertThat(union.selects()).containsExactly("events WHERE actor = ?");
    }

    @Test
    void onlyHoursMayBeAddedUpWhenDaysAreNotAmongTheUnits() throws SQLException {
        CountUnion union = plan(EventFilter.all(), new CountTables.Unit[] {CountTables.Unit.HOUR});

        assertThat(union.selects()).containsExactly("counts governance_event_code_counts");
    }

    @Test
    void aPersonNamedTakesTheCountsThatHoldPeople() throws SQLException {
        CountUnion union = plan(EventFilter.all().withActor("maria"), CountTables.Unit.values());

        assertThat(union.selects()).containsExactly("counts governance_event_day_counts");
        assertThat(union.parameters()).containsExactly(CountTables.encoded("maria"));
    }

    @Test
    void theUnionJoinsItsSelectsInOrder() throws SQLException {
        CountUnion union = plan(EventFilter.all().between(MONDAY_10_15, THURSDAY_05_30), CountTables.Unit.values());

        assertThat(union.union().split(" UNION ALL ")).containsExactlyElementsOf(union.selects());
    }

    /** Plans with SELECTs that name what they read, so that a test sees the plan and not the SQL around it. */
    private static CountUnion plan(EventFilter filter, CountTables.Unit[] units) throws SQLException {
        return CountUnion.of(null, filter, Dialect.SQLITE, units, events -> "events" + events.clause(),
                counts -> "counts " + counts.table());
    }
}
