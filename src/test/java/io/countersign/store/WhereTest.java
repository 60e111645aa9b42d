package io.countersign.store;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.EventType;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The WHERE clauses the event queries are planned from: the SQL text holds no value, the parameters all. */
class WhereTest {
    private static final Instant FROM = Instant.parse("2026-03-01T10:15:00Z");
    private static final Instant UNTIL = Instant.parse("2026-03-02T00:00:00Z");

    @Test
    void aFilterOfNothingHasNoClause() {
        Where where = Where.of(EventFilter.all(), Dialect.SQLITE);

        assertThat(where.clause()).isEmpty();
        assertThat(where.parameters()).isEmpty();
    }

    @Test
    void eachCriterionIsAConditionWithItsValueAsAParameterInTheSameOrder() {
        EventFilter filter = EventFilter.all().between(FROM, UNTIL).withReasonCode("outside_workspace")
                .withActor("maria");

        Where where = Where.of(filter, Dialect.POSTGRESQL);

        assertThat(where.clause()).isEqualTo(" WHERE event_time >= ? AND event_time < ? AND reason_code = ?"
                + " AND actor = ?");
        assertThat(where.parameters()).containsExactly(Nanos.of(FROM), Nanos.of(UNTIL), "outside_workspace",
                "maria");
    }

    @Test
    void typesAreOneInListOfTheirCodesSortedSoThatEqualFiltersMakeEqualStatements() {
        Where where = Where.of(EventFilter.all().ofTypes(Set.of(EventType.TOOL_DENIED,
                EventType.APPROVAL_DECIDED)), Dialect.SQLITE);

        assertThat(where.clause()).isEqualTo(" WHERE event_type IN (?, ?)");
        assertThat(where.parameters()).containsExactly(EventType.APPROVAL_DECIDED.code(),
                EventType.TOOL_DENIED.code());
    }

    @Test
    void aTextIsLookedForInEverySearchedColumnAsOneLowerCasePattern() {
        Where sqlite = Where.of(EventFilter.all().withText("Secret"), Dialect.SQLITE);
        Where postgres = Where.of(EventFilter.all().withText("Secret"), Dialect.POSTGRESQL);

        assertThat(sqlite.parameters()).hasSize(EventNames.SEARCHED.size())
                .containsOnly(EventNames.pattern("Secret"));
        assertThat(sqlite.clause()).contains(" OR ").doesNotContain("LOWER(");
        assertThat(postgres.clause()).contains("LOWER(");
    }

    @Test
    void countsAreFilteredByTheirStretchAndByValuesEncodedAsTheyAreCounted() {
        Where where = Where.ofCounts(EventFilter.all().withToolName("fs.read"), CountTables.Unit.HOUR, 10L, 20L,
                Set.of(), Dialect.SQLITE);

        assertThat(where.clause()).isEqualTo(" WHERE event_hour >= ? AND event_hour < ? AND tool_name = ?");
        assertThat(where.parameters()).containsExactly(10L, 20L, CountTables.encoded("fs.read"));
    }

    @Test
    void aTextOverTheCountsIsLookedForOnlyInTheColumnsThatHoldAValueContainingIt() {
        Where where = Where.ofCounts(EventFilter.all().withText("maria"), CountTables.Unit.DAY, null, null,
                Set.of("actor"), Dialect.SQLITE);

        assertThat(where.clause()).startsWith(" WHERE (actor IN ").doesNotContain("tool_name");
        assertThat(where.parameters()).containsExactly(EventNames.pattern("maria"));
    }

    @Test
    void theEventsOnlyTheirRunIdFindsAreThoseNoOtherSearchedColumnFinds() {
        Where where = Where.ofRunsOnly(EventFilter.all().withText("run-7"), 10L, 12L, Dialect.SQLITE);

        assertThat(where.clause()).contains("run_id IN ").contains("NOT (").contains("COALESCE(");
        assertThat(where.parameters()).startsWith(Nanos.of(CountTables.hourStart(10)),
                Nanos.of(CountTables.hourStart(12))).endsWith(Collections.nCopies(EventNames.SEARCHED.size(),
                EventNames.pattern("run-7")).toArray());
    }

    @Test
    void addingAConditionLeavesTheOriginalAsItWas() {
        Where base = Where.of(EventFilter.all().withActor("maria"), Dialect.SQLITE);

        Where narrowed = base.and("(event_time, id) < (?, ?)", 5L, "e-1");

        assertThat(base.parameters()).isEqualTo(List.of("maria"));
        assertThat(narrowed.clause()).isEqualTo(" WHERE actor = ? AND (event_time, id) < (?, ?)");
        assertThat(narrowed.parameters()).containsExactly("maria", 5L, "e-1");
    }
}
