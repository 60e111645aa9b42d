package io.countersign.store;

import static io.countersign.store.TestEvents.event;
import static io.countersign.store.TestRuns.approval;
import static io.countersign.store.TestRuns.input;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.Json;
import io.countersign.engine.Role;
import io.countersign.engine.access.SettingChange;
import io.countersign.engine.call.ToolInvocationHistory;
import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.chat.TrustZone;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.tool.ApprovalDeclaration;
import io.countersign.engine.tool.RemoteDeclaration;
import io.countersign.engine.tool.ToolSettings;
import io.countersign.engine.event.DayCount;
import io.countersign.engine.event.EventCharts;
import io.countersign.engine.event.EventCount;
import io.countersign.engine.event.EventCursor;
import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.EventPage;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.event.PageRequest;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.DecisionStart;
import io.countersign.engine.port.ExecutionJournal;
import io.countersign.engine.port.RunClaims.ClaimResult;
import io.countersign.engine.port.RunLease;
import io.countersign.engine.port.RunQueue;
import io.countersign.engine.port.RunSummary;
import io.countersign.engine.port.RunTakenOverException;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.run.RunLifecycle;
import io.countersign.engine.port.WaitingRun;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.RunCounters;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.ToolPreview;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The behaviour of the store, the same on every database: each subclass supplies a fresh, empty database per
 * test.
 */
abstract class StoreSuite extends StoreFixture {
    static final Actor ADMIN = Actor.of("ana", Role.ADMIN);

    Set<String> columnsOf(String table) throws SQLException {
        try (Connection connection = rawDataSource(location).getConnection();
             ResultSet columns = connection.getMetaData().getColumns(null, connection.getSchema(), table, "%")) {
            Set<String> names = new TreeSet<>();
            while (columns.next()) {
                names.add(columns.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
            }
            return names;
        }
    }

    /**
     * Changes the store behind Countersign's back; on PostgreSQL as a superuser who first switches off the guards
     * on runs (V26), as only a superuser can.
     */
    void execute(String sql) throws SQLException {
        try (Connection connection = rawDataSource(location).getConnection();
             Statement statement = connection.createStatement()) {
            if (dialect() == Dialect.POSTGRESQL) {
                statement.execute("SET session_replication_role = replica");
            }
            statement.execute(sql);
        }
    }

    /** The lease of the run's current driver, as the claim or take-over that made it one handed it out. */
    static RunLease lease(RunStore runs, String runId) {
        return runs.find(runId).orElseThrow().lease();
    }

    /** Records the outcome as the run's current driver. */
    static void recordOutcome(RunStore runs, RunOutcome outcome, Instant at) {
        runs.recordOutcome(lease(runs, outcome.runId()), outcome, at);
    }

    /** Puts the run back to waiting as its current driver. */
    static void release(RunStore runs, PausedState state, Instant at) {
        runs.release(lease(runs, state.runId()), state, at);
    }

    /** The journal of the run's current driver. */
    static ExecutionJournal journal(RunStore runs, String runId) {
        return runs.journal(lease(runs, runId));
    }

    /** Migrates the database on to a version this build does not have, as a newer Countersign would. */
    void migrateWithANewerBuild() {
        Flyway.configure().dataSource(rawDataSource(location))
                .locations(Migrations.LOCATION, "classpath:db/future")
                .placeholders(dialect().migrationPlaceholders())
                .loggers("slf4j")
                .load().migrate();
    }

    @Nested
    class Schema {

        @Test
        void freshStoreIsMigratedToEveryVersionThisBuildKnows() throws SQLException {
            try (Connection connection = rawDataSource(location).getConnection();
                 Statement statement = connection.createStatement();
                 ResultSet versions = statement.executeQuery(
                         "SELECT version FROM flyway_schema_history WHERE success = " + trueLiteral())) {
                List<String> applied = new ArrayList<>();
                while (versions.next()) {
                    applied.add(versions.getString(1));
                }
                assertThat(applied).containsExactly("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12",
                        "13", "14", "16", "17", "18", "19", "20", "21", "23", "25", "26", "27", "28");
            }
        }

        @Test
        void eventsHaveExactlyTheFieldsOfAGovernanceEventAndNoPlaceForPayloads() throws SQLException {
            Set<String> columns = columnsOf("governance_events");

            assertThat(columns).containsExactlyInAnyOrder("id", "event_time", "event_type", "reason_code",
                    "tool_name", "rule_id", "run_id", "agent_configuration", "actor", "model", "detail",
                    "written_at_schema");
            // the event's fields, and the schema version of the build that wrote the row (V27)
            assertThat(columns).hasSize(GovernanceEvent.class.getRecordComponents().length + 1);
            assertThat(columns).noneMatch(column -> column.contains("argument") || column.contains("result")
                    || column.contains("explanation") || column.contains("exception"));
        }

        @Test
        void reopeningKeepsWhatWasStored() {
            store.events().record(event("e1", NOW).build());
            store.close();

            store = open();

            assertThat(store.events().page(EventFilter.all(), PageRequest.first(10)).events())
                    .extracting(GovernanceEvent::id).containsExactly("e1");
        }

        @Test
        void storeWrittenByANewerVersionIsRefusedNamingTheVersions() {
            store.close();
            migrateWithANewerBuild();

            assertThatThrownBy(this::reopen)
                    .isInstanceOf(NewerStoreException.class)
                    .hasMessageContaining("written by a newer Countersign")
                    .hasMessageContaining("version 999")
                    .hasMessageContaining("knows up to version 28")
                    .satisfies(e -> assertThat(((NewerStoreException) e).unknownVersions()).containsExactly("999"));
        }

        @Test
        void databaseHoldingAnotherProgramsTablesIsRefused() throws Exception {
            store.close();
            location = freshLocation();
            execute("CREATE TABLE invoices (id INTEGER)");

            assertThatThrownBy(this::reopen)
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("already holds tables that are not a Countersign store");
            assertThat(columnsOf("flyway_schema_history")).isEmpty();
        }

        private void reopen() {
            store = open();
        }

        private String trueLiteral() {
            return dialect() == Dialect.SQLITE ? "1" : "TRUE";
        }
    }

    @Nested
    class Events {

        @Test
        void recordedEventComesBackFieldForField() {
            GovernanceEvent recorded = new GovernanceEvent("e1", Instant.parse("2026-02-03T04:05:06.123456789Z"),
                    EventType.TOOL_DENIED, "zone.ceiling", "fs.read", "gate.trust_zone", "run-1", "triage", "ana",
                    "local-llama", "verdicts=deny");

            store.events().record(recorded);

            assertThat(store.events().page(EventFilter.all(), PageRequest.first(10)).events())
                    .containsExactly(recorded);
        }

        @Test
        void batchLargerThanOneJdbcBatchIsStoredWhole() {
            List<GovernanceEvent> batch = IntStream.range(0, 2_345)
                    .mapToObj(i -> event("e" + i, NOW.minusSeconds(i)).reason("r" + i % 3).build()).toList();

            store.events().appendAll(batch);

            assertThat(store.events().countsByReason(EventFilter.all()))
                    .containsExactly(new EventCount("r0", 782), new EventCount("r1", 782), new EventCount("r2", 781));
        }

        @Test
        void batchWithARepeatedIdStoresNothing() {
            store.events().record(event("taken", NOW).build());
            List<GovernanceEvent> batch = List.of(event("new-1", NOW).build(), event("taken", NOW).build(),
                    event("new-2", NOW).build());

            assertThatThrownBy(() -> store.events().appendAll(batch))
                    .isInstanceOf(StoreException.class)
                    .hasMessageStartingWith("Countersign could not append 3 governance events");
            assertThat(store.events().page(EventFilter.all(), PageRequest.first(10)).events())
                    .extracting(GovernanceEvent::id).containsExactly("taken");
        }

        @Test
        void purgeDeletesOnlyEventsOlderThanTheAge() {
            store.events().appendAll(List.of(
                    event("old-1", NOW.minus(Duration.ofDays(40))).build(),
                    event("old-2", NOW.minus(Duration.ofDays(31))).build(),
                    event("recent", NOW.minus(Duration.ofDays(29))).build()));

            long deleted = store.events().purgeOlderThan(Duration.ofDays(30), "ana");

            assertThat(deleted).isEqualTo(2);
            assertThat(store.events().page(EventFilter.all(), PageRequest.first(10)).events())
                    .extracting(GovernanceEvent::id).containsExactly("recent");
        }

        @Test
        void purgeBeyondOneSliceDeletesEveryOldEvent() {
            store.events().appendAll(IntStream.range(0, 10_050)
                    .mapToObj(i -> event("old" + i, NOW.minus(Duration.ofDays(60)).plusSeconds(i)).build()).toList());

            assertThat(store.events().purgeOlderThan(Duration.ofDays(30), "ana")).isEqualTo(10_050);
        }

        @Test
        void negativeRetentionAgeIsRejected() {
            assertThatThrownBy(() -> store.events().purgeOlderThan(Duration.ofDays(-1), "ana"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cannot be negative");
        }
    }

    @Nested
    class EventQueries {
        final GovernanceEvent gate = event("a", NOW.minusSeconds(50)).type(EventType.TOOL_DENIED)
                .reason("zone.ceiling").tool("fs.read").rule("gate.trust_zone").run("run-1").agent("triage")
                .actor("ana").model("Local-Llama").build();
        final GovernanceEvent rule = event("b", NOW.minusSeconds(40)).type(EventType.INVOCATION_DENIED)
                .reason("outside_workspace").tool("fs.write").rule("workspace.boundary").run("run-1")
                .agent("triage").actor("ana").build();
        final GovernanceEvent unapproved = event("c", NOW.minusSeconds(30)).type(EventType.WRITE_UNAPPROVED)
                .reason("no_approval").tool("fs.write").run("run-2").agent("release").actor("ben").build();
        final GovernanceEvent decided = event("d", NOW.minusSeconds(20)).type(EventType.APPROVAL_DECIDED)
                .run("run-2").agent("release").actor("cleo").detail("approved=2").build();
        final GovernanceEvent again = event("e", NOW.minus(Duration.ofDays(1))).type(EventType.INVOCATION_DENIED)
                .reason("outside_workspace").tool("fs.write").rule("workspace.boundary").run("run-3")
                .agent("triage").actor("ben").build();

        @BeforeEach
        void recordEvents() {
            store.events().appendAll(List.of(gate, rule, unapproved, decided, again));
        }

        List<String> ids(EventFilter filter) {
            return store.events().page(filter, PageRequest.first(100)).events().stream().map(GovernanceEvent::id)
                    .toList();
        }

        @Test
        void everyEventComesNewestFirst() {
            assertThat(ids(EventFilter.all())).containsExactly("d", "c", "b", "a", "e");
        }

        @Test
        void timeRangeIncludesItsStartAndExcludesItsEnd() {
            assertThat(ids(EventFilter.all().between(gate.time(), decided.time()))).containsExactly("c", "b", "a");
        }

        @Test
        void typesFilterKeepsAnyOfTheGivenTypes() {
            assertThat(ids(EventFilter.all().ofTypes(Set.of(EventType.TOOL_DENIED, EventType.WRITE_UNAPPROVED))))
                    .containsExactly("c", "a");
        }

        @Test
        void reasonCodeFilterMatchesExactly() {
            assertThat(ids(EventFilter.all().withReasonCode("outside_workspace"))).containsExactly("b", "e");
        }

        @Test
        void ruleFilterMatchesExactly() {
            assertThat(ids(EventFilter.all().withRuleId("gate.trust_zone"))).containsExactly("a");
        }

        @Test
        void toolFilterMatchesExactly() {
            assertThat(ids(EventFilter.all().withToolName("fs.write"))).containsExactly("c", "b", "e");
        }

        @Test
        void agentConfigurationFilterMatchesExactly() {
            assertThat(ids(EventFilter.all().withAgentConfiguration("release"))).containsExactly("d", "c");
        }

        @Test
        void actorFilterMatchesExactly() {
            assertThat(ids(EventFilter.all().withActor("ben"))).containsExactly("c", "e");
        }

        @Test
        void runFilterMatchesExactly() {
            assertThat(ids(EventFilter.all().withRunId("run-1"))).containsExactly("b", "a");
        }

        @Test
        void filtersCombineWithAnd() {
            assertThat(ids(EventFilter.all().withToolName("fs.write").withActor("ana"))).containsExactly("b");
        }

        @Test
        void textSearchFindsPartsOfCodesAndNamesIgnoringCase() {
            assertThat(ids(EventFilter.all().withText("WORKSPACE"))).containsExactly("b", "e");
            assertThat(ids(EventFilter.all().withText("llama"))).containsExactly("a");
        }

        @Test
        void textSearchTakesWildcardsLiterally() {
            assertThat(ids(EventFilter.all().withText("no_appr"))).containsExactly("c");
            assertThat(ids(EventFilter.all().withText("no%appr"))).isEmpty();
        }

        @Test
        void textSearchDoesNotLookIntoTheDetail() {
            assertThat(ids(EventFilter.all().withText("approved=2"))).isEmpty();
        }

        @Test
        void countsByReasonRuleAndToolLeaveOutEventsWithout() {
            assertThat(store.events().countsByReason(EventFilter.all())).containsExactly(
                    new EventCount("outside_workspace", 2), new EventCount("no_approval", 1),
                    new EventCount("zone.ceiling", 1));
            assertThat(store.events().countsByRule(EventFilter.all())).containsExactly(
                    new EventCount("workspace.boundary", 2), new EventCount("gate.trust_zone", 1));
            assertThat(store.events().countsByTool(EventFilter.all())).containsExactly(
                    new EventCount("fs.write", 3), new EventCount("fs.read", 1));
        }

        @Test
        void chartsCountAllFourMostFirstLikeTheCountsAlone() {
            EventCharts charts = store.events().charts(EventFilter.all(), ZoneOffset.UTC);

            assertThat(charts.byReason()).containsExactlyElementsOf(store.events().countsByReason(EventFilter.all()));
            assertThat(charts.byRule()).containsExactlyElementsOf(store.events().countsByRule(EventFilter.all()));
            assertThat(charts.byTool()).containsExactlyElementsOf(store.events().countsByTool(EventFilter.all()));
            assertThat(charts.byDay()).containsExactlyElementsOf(store.events().countsByDay(EventFilter.all(),
                    ZoneOffset.UTC));
            assertThat(charts.total()).isEqualTo(5);
        }

        @Test
        void countsFollowTheFilter() {
            assertThat(store.events().countsByReason(EventFilter.all().withActor("ana"))).containsExactly(
                    new EventCount("outside_workspace", 1), new EventCount("zone.ceiling", 1));
        }

        @Test
        void countsByDayGroupEventsByCalendarDayAtTheOffset() {
            assertThat(store.events().countsByDay(EventFilter.all(), ZoneOffset.UTC)).containsExactly(
                    new DayCount(LocalDate.of(2026, 2, 28), 1), new DayCount(LocalDate.of(2026, 3, 1), 4));
            // At UTC-12 the day-old event falls at midnight and the others just before the next one.
            assertThat(store.events().countsByDay(EventFilter.all(), ZoneOffset.ofHours(-12))).containsExactly(
                    new DayCount(LocalDate.of(2026, 2, 28), 5));
        }

        @Test
        void emptyTimeRangeIsRejected() {
            assertThatThrownBy(() -> EventFilter.all().between(NOW, NOW))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("the time range is empty");
        }
    }

    /**
     * The counts add up daily and hourly counts kept beside the events for the whole days and hours of a range and
     * count the partial hours at its edges from the events: every answer must be the one the events alone give.
     */
    @Nested
    class CountsByHourAndDay {
        static final Instant START = Instant.parse("2026-02-27T10:00:00Z");
        static final List<ZoneOffset> OFFSETS = List.of(ZoneOffset.UTC, ZoneOffset.ofHours(2),
                ZoneOffset.ofHours(-12), ZoneOffset.ofHoursMinutes(5, 30));
        final List<GovernanceEvent> recorded = new ArrayList<>();

        /** Events every 7 minutes and a few nanoseconds, cycling through values, some of them missing or empty. */
        List<GovernanceEvent> spread(String prefix, Instant start, int count) {
            EventType[] types = EventType.values();
            return IntStream.range(0, count).mapToObj(i -> event(prefix + i, start.plus(Duration.ofMinutes(7L * i))
                    .plusNanos(i)).type(types[i % types.length])
                    .reason(i % 5 == 0 ? null : i % 5 == 1 ? "" : "r" + i % 3)
                    .rule(i % 4 == 0 ? null : "rule" + i % 2).tool(i % 7 == 0 ? null : "tool" + i % 3)
                    .agent(i % 9 == 0 ? null : "agent" + i % 2).actor(i % 6 == 0 ? null : "p" + i % 3)
                    .run("run-" + i % 4).model("model" + i % 2).build()).toList();
        }

        void record(List<GovernanceEvent> events) {
            store.events().appendAll(events);
            recorded.addAll(events);
        }

        /**
         * Ranges with partial and whole hours and days at either edge, open ends, one hour's part, and each
         * criterion.
         */
        List<EventFilter> filters() {
            Instant partial = START.plus(Duration.ofMinutes(13)).plusNanos(5);
            Instant later = START.plus(Duration.ofHours(29)).plus(Duration.ofMinutes(21));
            Instant dayAfter = START.plus(Duration.ofHours(45)).plus(Duration.ofMinutes(10));
            Instant midnight = START.plus(Duration.ofHours(14));
            return List.of(EventFilter.all(),
                    EventFilter.all().between(partial, later),
                    EventFilter.all().between(partial, dayAfter),
                    EventFilter.all().between(midnight, dayAfter).withActor("p2"),
                    EventFilter.all().between(START.plus(Duration.ofHours(2)), midnight.plus(Duration.ofDays(1)))
                            .withRuleId("rule0"),
                    EventFilter.all().withText("p1").between(partial, dayAfter),
                    EventFilter.all().between(START.plus(Duration.ofHours(1)), START.plus(Duration.ofHours(20))),
                    EventFilter.all().between(null, later),
                    EventFilter.all().between(partial, null),
                    EventFilter.all().between(START.plus(Duration.ofHours(3)), null),
                    EventFilter.all().between(partial, START.plus(Duration.ofMinutes(50))),
                    EventFilter.all().between(partial, later).withRuleId("rule1"),
                    EventFilter.all().withReasonCode(""),
                    EventFilter.all().withReasonCode("r2").withToolName("tool1"),
                    EventFilter.all().ofTypes(Set.of(EventType.TOOL_DENIED, EventType.APPROVAL_DECIDED))
                            .withActor("p1").between(partial, later),
                    EventFilter.all().withAgentConfiguration("agent0"),
                    EventFilter.all().withRunId("run-2").between(partial, later),
                    EventFilter.all().withText("MODEL1").between(partial, later),
                    EventFilter.all().withText("ULE1").between(partial, later),
                    EventFilter.all().withText("r2").withToolName("tool1"),
                    EventFilter.all().withText("p1").between(partial, null),
                    EventFilter.all().withText("run-3").between(partial, later),
                    EventFilter.all().withText("1").ofTypes(Set.of(EventType.TOOL_DENIED)).between(null, later),
                    EventFilter.all().withText("denied").withAgentConfiguration("agent0"),
                    EventFilter.all().withText("absent"));
        }

        void assertCountsMatchTheEvents() {
            for (EventFilter filter : filters()) {
                List<GovernanceEvent> matching = recorded.stream().filter(event -> matches(filter, event)).toList();
                assertThat(store.events().countsByReason(filter)).as("by reason, %s", filter)
                        .containsExactlyInAnyOrderElementsOf(countsOf(matching, GovernanceEvent::reasonCode));
                assertThat(store.events().countsByRule(filter)).as("by rule, %s", filter)
                        .containsExactlyInAnyOrderElementsOf(countsOf(matching, GovernanceEvent::ruleId));
                assertThat(store.events().countsByTool(filter)).as("by tool, %s", filter)
                        .containsExactlyInAnyOrderElementsOf(countsOf(matching, GovernanceEvent::toolName));
                for (ZoneOffset offset : OFFSETS) {
                    assertThat(store.events().countsByDay(filter, offset)).as("by day at %s, %s", offset, filter)
                            .containsExactlyElementsOf(daysOf(matching, offset));
                    EventCharts charts = store.events().charts(filter, offset);
                    assertThat(charts.byDay()).as("charts by day at %s, %s", offset, filter)
                            .containsExactlyElementsOf(daysOf(matching, offset));
                    assertThat(charts.byReason()).as("charts by reason, %s", filter)
                            .containsExactlyInAnyOrderElementsOf(countsOf(matching, GovernanceEvent::reasonCode));
                    assertThat(charts.byRule()).as("charts by rule, %s", filter)
                            .containsExactlyInAnyOrderElementsOf(countsOf(matching, GovernanceEvent::ruleId));
                    assertThat(charts.byTool()).as("charts by tool, %s", filter)
                            .containsExactlyInAnyOrderElementsOf(countsOf(matching, GovernanceEvent::toolName));
                }
            }
        }

        /** The filter as the events alone answer it (the texts of the filters above are ASCII). */
        boolean matches(EventFilter filter, GovernanceEvent event) {
            return (filter.from() == null || !event.time().isBefore(filter.from()))
                    && (filter.until() == null || event.time().isBefore(filter.until()))
                    && (filter.types().isEmpty() || filter.types().contains(event.type()))
                    && same(filter.reasonCode(), event.reasonCode()) && same(filter.ruleId(), event.ruleId())
                    && same(filter.toolName(), event.toolName())
                    && same(filter.agentConfiguration(), event.agentConfiguration())
                    && same(filter.actor(), event.actor()) && same(filter.runId(), event.runId())
                    && (filter.text() == null || Stream.of(event.type().code(), event.reasonCode(), event.ruleId(),
                    event.toolName(), event.agentConfiguration(), event.actor(), event.model(), event.runId())
                    .anyMatch(value -> value != null
                            && value.toLowerCase(Locale.ROOT).contains(filter.text().toLowerCase(Locale.ROOT))));
        }

        boolean same(String wanted, String value) {
            return wanted == null || wanted.equals(value);
        }

        List<EventCount> countsOf(List<GovernanceEvent> events,
                                  Function<GovernanceEvent, String> key) {
            Map<String, Long> counts = new HashMap<>();
            events.stream().map(key).filter(Objects::nonNull)
                    .forEach(value -> counts.merge(value, 1L, Long::sum));
            return counts.entrySet().stream().map(count -> new EventCount(count.getKey(), count.getValue())).toList();
        }

        List<DayCount> daysOf(List<GovernanceEvent> events, ZoneOffset offset) {
            Map<LocalDate, Long> counts = new TreeMap<>();
            events.forEach(event -> counts.merge(LocalDate.ofInstant(event.time(), offset), 1L, Long::sum));
            return counts.entrySet().stream().map(count -> new DayCount(count.getKey(), count.getValue())).toList();
        }

        long countRowsOfNothing() throws SQLException {
            try (Connection connection = rawDataSource(location).getConnection();
                 Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT (SELECT COUNT(*) FROM governance_event_counts"
                         + " WHERE event_count <= 0) + (SELECT COUNT(*) FROM governance_event_code_counts"
                         + " WHERE event_count <= 0) + (SELECT COUNT(*) FROM governance_event_day_counts"
                         + " WHERE event_count <= 0) + (SELECT COUNT(*) FROM governance_event_code_day_counts"
                         + " WHERE event_count <= 0)")) {
                rows.next();
                return rows.getLong(1);
            }
        }

        @Test
        void countsOfWholeAndPartialHoursAreThoseOfTheEvents() {
            record(spread("e", START, 420));

            assertCountsMatchTheEvents();
        }

        @Test
        void eventsAppendedLaterAddToTheSameHours() {
            record(spread("e", START, 420));
            for (GovernanceEvent event : spread("late", START.plus(Duration.ofMinutes(3)), 40)) {
                store.events().record(event);
                recorded.add(event);
            }

            assertCountsMatchTheEvents();
        }

        @Test
        void purgeTakesItsEventsOffTheCounts() throws SQLException {
            record(spread("e", START, 420));
            Instant cutoff = START.plus(Duration.ofHours(17)).plus(Duration.ofMinutes(25));

            long deleted = store.events().purgeOlderThan(Duration.between(cutoff, NOW), "ana");

            recorded.removeIf(event -> event.time().isBefore(cutoff));
            assertThat(deleted).isEqualTo(420 - recorded.size());
            assertCountsMatchTheEvents();
            assertThat(countRowsOfNothing()).isZero();
        }

        @Test
        void eventsStoredBeforeTheCountsExistedAreCounted() throws Exception {
            store.close();
            location = freshLocation();
            Flyway.configure().dataSource(rawDataSource(location)).locations(Migrations.LOCATION)
                    .placeholders(dialect().migrationPlaceholders()).target("5").loggers("slf4j").load().migrate();
            try (Connection connection = rawDataSource(location).getConnection();
                 PreparedStatement insert = connection.prepareStatement(TestEvents.INSERT_BEFORE_V27)) {
                for (GovernanceEvent event : spread("old", START, 420)) {
                    EventStore.bind(insert, event);
                    insert.executeUpdate();
                    recorded.add(event);
                }
            }

            store = open();

            assertCountsMatchTheEvents();
        }

        @Test
        void pagesReadAsFarBackAsTheCountsShowAndHoldEveryMatchingEvent() {
            record(spread("e", START, 420));
            store.events().purgeOlderThan(Duration.between(START.plus(Duration.ofHours(3)), NOW), "ana");
            recorded.removeIf(event -> event.time().isBefore(START.plus(Duration.ofHours(3))));

            for (EventFilter filter : filters()) {
                List<String> expected = recorded.stream().filter(event -> matches(filter, event))
                        .sorted(Comparator.comparing(GovernanceEvent::time).reversed())
                        .map(GovernanceEvent::id).toList();
                List<String> paged = new ArrayList<>();
                PageRequest request = PageRequest.first(4);
                while (request != null) {
                    EventPage page = store.events().page(filter, request);
                    page.events().forEach(event -> paged.add(event.id()));
                    request = page.nextCursor().map(cursor -> PageRequest.after(cursor, 4)).orElse(null);
                }
                assertThat(paged).as("pages of %s", filter).containsExactlyElementsOf(expected);
            }
        }

        @Test
        void criteriaThatNeverMeetGiveAnEmptyPage() {
            record(spread("e", START, 420));

            assertThat(store.events().page(EventFilter.all().withRuleId("rule1").withReasonCode("absent"),
                    PageRequest.first(10)).events()).isEmpty();
        }

        @Test
        void missingValueAndEmptyTextAreCountedApart() {
            record(List.of(event("none", START).build(), event("empty", START).reason("").build()));

            assertThat(store.events().countsByReason(EventFilter.all())).containsExactly(new EventCount("", 1));
            assertThat(store.events().countsByDay(EventFilter.all().withReasonCode(""), ZoneOffset.UTC))
                    .containsExactly(new DayCount(LocalDate.of(2026, 2, 27), 1));
        }
    }

    @Nested
    class Paging {
        final List<GovernanceEvent> events = IntStream.range(0, 25)
                .mapToObj(i -> event(String.format("e%02d", i), NOW.minusSeconds(100 - i)).build()).toList();

        @BeforeEach
        void recordEvents() {
            store.events().appendAll(events);
        }

        List<String> ids(EventPage page) {
            return page.events().stream().map(GovernanceEvent::id).toList();
        }

        @Test
        void firstPageHoldsTheNewestAndPointsOnwardOnly() {
            EventPage first = store.events().page(EventFilter.all(), PageRequest.first(10));

            assertThat(ids(first)).containsExactly("e24", "e23", "e22", "e21", "e20", "e19", "e18", "e17", "e16",
                    "e15");
            assertThat(first.nextCursor()).isPresent();
            assertThat(first.isFirst()).isTrue();
        }

        @Test
        void pagingForwardVisitsEveryEventOnceAndEnds() {
            List<String> seen = new ArrayList<>();
            EventPage page = store.events().page(EventFilter.all(), PageRequest.first(10));
            seen.addAll(ids(page));
            while (page.nextCursor().isPresent()) {
                page = store.events().page(EventFilter.all(), PageRequest.after(page.next(), 10));
                seen.addAll(ids(page));
            }

            assertThat(seen).hasSize(25).doesNotHaveDuplicates();
            assertThat(ids(page)).containsExactly("e04", "e03", "e02", "e01", "e00");
        }

        @Test
        void pagingBackFromTheLastPageReturnsToTheFirst() {
            EventPage first = store.events().page(EventFilter.all(), PageRequest.first(10));
            EventPage second = store.events().page(EventFilter.all(), PageRequest.after(first.next(), 10));
            EventPage third = store.events().page(EventFilter.all(), PageRequest.after(second.next(), 10));

            EventPage backToSecond = store.events().page(EventFilter.all(), PageRequest.before(third.previous(), 10));
            EventPage backToFirst = store.events().page(EventFilter.all(),
                    PageRequest.before(backToSecond.previous(), 10));

            assertThat(backToSecond).isEqualTo(second);
            assertThat(ids(backToFirst)).isEqualTo(ids(first));
            assertThat(backToFirst.isFirst()).isTrue();
        }

        @Test
        void pagingBackPastTheStartShowsAFullFirstPage() {
            EventCursor nearTheTop = new EventCursor(events.get(21).time(), events.get(21).id());

            EventPage page = store.events().page(EventFilter.all(), PageRequest.before(nearTheTop, 10));

            assertThat(ids(page)).isEqualTo(ids(store.events().page(EventFilter.all(), PageRequest.first(10))));
            assertThat(page.isFirst()).isTrue();
        }

        @Test
        void eventsAtTheSameInstantAreNeitherSkippedNorRepeated() {
            store.events().appendAll(IntStream.range(0, 7)
                    .mapToObj(i -> event("same-" + i, NOW).reason("tie").build()).toList());
            EventFilter ties = EventFilter.all().withReasonCode("tie");

            EventPage first = store.events().page(ties, PageRequest.first(3));
            EventPage second = store.events().page(ties, PageRequest.after(first.next(), 3));
            EventPage third = store.events().page(ties, PageRequest.after(second.next(), 3));

            List<String> seen = new ArrayList<>(ids(first));
            seen.addAll(ids(second));
            seen.addAll(ids(third));
            assertThat(seen).hasSize(7).doesNotHaveDuplicates();
            assertThat(third.nextCursor()).isEmpty();
        }

        @Test
        void pageSizeOutsideTheLimitsIsRejected() {
            assertThatThrownBy(() -> PageRequest.first(0)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("a page holds 1 to 1000 events");
        }
    }

    @Nested
    class Settings {

        @Test
        void freshStoreHasTheDefaultSettings() {
            assertThat(store.settings().current()).isEqualTo(ToolSettings.defaults());
        }

        @Test
        void eachKindOfChangeShowsInTheCurrentSettings() {
            store.settings().setToolEnabled("web_fetch", false, ADMIN);
            store.settings().setGroupEnabled("shell", false, ADMIN);
            store.settings().setApprovalSetting("fs.write", false, ADMIN);
            store.settings().setServerApprovalBound("github", false, ADMIN);

            assertThat(store.settings().current()).isEqualTo(ToolSettings.defaults()
                    .withToolEnabled("web_fetch", false).withGroupEnabled("shell", false)
                    .withApprovalSetting("fs.write", false).withServerApprovalBound("github", false));
        }

        @Test
        void changeIsRecordedWithWhoWhenOldAndNewValue() {
            SettingChange change = store.settings().setToolEnabled("web_fetch", false, ADMIN).orElseThrow();

            assertThat(change).extracting(SettingChange::time, SettingChange::actor, SettingChange::settingKey,
                            SettingChange::oldValue, SettingChange::newValue)
                    .containsExactly(NOW, "ana", "tool_enabled:web_fetch", "true", "false");
            assertThat(store.settings().changes(10)).containsExactly(change);
        }

        @Test
        void changesAreListedNewestFirst() {
            store.settings().setToolEnabled("web_fetch", false, ADMIN);
            store.settings().setApprovalSetting("fs.write", true, ADMIN);
            store.settings().setToolEnabled("web_fetch", true, ADMIN);

            assertThat(store.settings().changes(10))
                    .extracting(SettingChange::settingKey, SettingChange::oldValue, SettingChange::newValue)
                    .containsExactly(
                            tuple("tool_enabled:web_fetch", "false", "true"),
                            tuple("approval:fs.write", null, "true"),
                            tuple("tool_enabled:web_fetch", "true", "false"));
        }

        @Test
        void settingTheValueInForceRecordsNothing() {
            assertThat(store.settings().setToolEnabled("web_fetch", true, ADMIN)).isEmpty();
            assertThat(store.settings().changes(10)).isEmpty();
        }

        @Test
        void allowedHostsAreKeptLowerCaseSortedAndUnique() {
            store.settings().setAllowedHosts("web_fetch", List.of("Docs.Example.org", "*.example.com",
                    "docs.example.org"), ADMIN);

            assertThat(store.settings().allowedHosts("web_fetch")).contains(List.of("*.example.com",
                    "docs.example.org"));
            assertThat(store.settings().allowedHosts("fs.read")).isEmpty();
        }

        @Test
        void emptyHostListAllowsNoHost() {
            store.settings().setAllowedHosts("web_fetch", List.of(), ADMIN);

            assertThat(store.settings().allowedHosts("web_fetch")).contains(List.of());
        }

        @Test
        void hostWithASchemeIsRejected() {
            assertThatThrownBy(() -> store.settings().setAllowedHosts("web_fetch", List.of("https://x.org"), ADMIN))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("\"https://x.org\" is not a host name");
        }

        @Test
        void toolNameThatIsNotACodeIsRejected() {
            assertThatThrownBy(() -> store.settings().setToolEnabled("Web Fetch", false, ADMIN))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("tool name \"Web Fetch\" must match");
        }

        @Test
        void anotherStoreOnTheSameDatabaseSeesAChangeWithinASecond() {
            try (Store other = open()) {
                assertThat(other.settings().current().disabledTools()).isEmpty();

                store.settings().setToolEnabled("web_fetch", false, ADMIN);

                await().atMost(Duration.ofSeconds(1)).untilAsserted(() ->
                        assertThat(other.settings().current().disabledTools()).containsExactly("web_fetch"));
            }
        }
    }

    @Nested
    class Users {

        @Test
        void firstUserOfANewStoreGetsEveryRoleOfAPerson() {
            Actor first = store.users().ensureUser("ana");

            // the worker role is for a worker process's login; a person runs their own worker as operator
            assertThat(first.roles()).containsExactlyInAnyOrder(Role.ADMIN, Role.OPERATOR, Role.SUPERVISOR);
        }

        @Test
        void aWorkersRoleIsStoredAndReadBack() {
            store.users().add("wendy", Set.of(Role.WORKER), ADMIN);
            store.users().add("kai", Set.of(Role.OPERATOR), ADMIN);
            store.users().setRoles("kai", Set.of(Role.OPERATOR, Role.WORKER), ADMIN);

            assertThat(store.users().find("wendy")).contains(Actor.of("wendy", Role.WORKER));
            assertThat(store.users().find("kai")).contains(Actor.of("kai", Role.OPERATOR, Role.WORKER));
        }

        @Test
        void laterUsersStartWithoutRoles() {
            store.users().ensureUser("ana");

            assertThat(store.users().ensureUser("ben").roles()).isEmpty();
        }

        @Test
        void knownUserIsReturnedAsStored() {
            store.users().ensureUser("ana");
            store.users().setRoles("ana", Set.of(Role.ADMIN), ADMIN);

            assertThat(store.users().ensureUser("ana")).isEqualTo(Actor.of("ana", Role.ADMIN));
        }

        @Test
        void addedUsersAreFoundAndListedByName() {
            store.users().add("ben", Set.of(Role.OPERATOR), ADMIN);
            store.users().add("al", Set.of(), ADMIN);

            assertThat(store.users().find("ben")).contains(Actor.of("ben", Role.OPERATOR));
            assertThat(store.users().find("nobody")).isEmpty();
            assertThat(store.users().list()).containsExactly(Actor.of("al"), Actor.of("ben", Role.OPERATOR));
        }

        @Test
        void takenNameIsRejected() {
            store.users().add("ben", Set.of(), ADMIN);

            assertThatThrownBy(() -> store.users().add("ben", Set.of(Role.ADMIN), ADMIN))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("there already is a user named \"ben\"");
        }

        @Test
        void roleChangeIsRecordedWithOldAndNewRoles() {
            store.users().add("ben", Set.of(Role.OPERATOR), ADMIN);

            store.users().setRoles("ben", Set.of(Role.OPERATOR, Role.SUPERVISOR), ADMIN);

            assertThat(store.users().find("ben")).contains(Actor.of("ben", Role.OPERATOR, Role.SUPERVISOR));
            assertThat(store.settings().changes(1)).singleElement()
                    .extracting(SettingChange::actor, SettingChange::settingKey, SettingChange::oldValue,
                            SettingChange::newValue)
                    .containsExactly("ana", "user_roles:ben", "operator", "operator,supervisor");
        }

        @Test
        void lastAdminCannotLoseTheAdminRole() {
            store.users().ensureUser("ana");

            assertThatThrownBy(() -> store.users().setRoles("ana", Set.of(Role.OPERATOR), ADMIN))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("Cannot take the admin role from ana: they are the last admin; make another user"
                            + " admin first.");
            assertThat(store.users().find("ana").orElseThrow().isAdmin()).isTrue();
        }

        @Test
        void adminMayStepDownOnceAnotherAdminExists() {
            store.users().ensureUser("ana");
            store.users().add("ben", Set.of(Role.ADMIN), ADMIN);

            assertThat(store.users().setRoles("ana", Set.of(Role.OPERATOR), ADMIN).isAdmin()).isFalse();
        }

        @Test
        void rolesOfAnUnknownUserCannotBeSet() {
            assertThatThrownBy(() -> store.users().setRoles("nobody", Set.of(Role.OPERATOR), ADMIN))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("there is no user named \"nobody\"");
        }
    }

    @Nested
    class Configurations {
        final ModelConfiguration full = new ModelConfiguration("gpt-eu", "openai", "gpt-4o",
                "https://eu.example.org/v1", TrustZone.EXTERNAL_EU, 0.2, 4096, "OPENAI_API_KEY", null);
        final ModelConfiguration bare = ModelConfiguration.scripted("replay");
        final String policies = "[ {\"name\": \"cheap-search\", \"model\": \"replay\"} ]\n";
        final StoredAgentConfiguration agent = new StoredAgentConfiguration("triage", "Sort the tickets.", "gpt-eu",
                List.of("files", "web"), List.of("shell.run"), "/srv/tickets", policies, 8, true);

        @Test
        void modelConfigurationsRoundTripIncludingAbsentOptions() {
            store.configurations().saveModel(full);
            store.configurations().saveModel(bare);

            assertThat(store.configurations().findModel("gpt-eu")).contains(full);
            assertThat(store.configurations().listModels()).containsExactly(full, bare);
        }

        @Test
        void agentConfigurationRoundTripsWithItsPolicyTextAsGiven() {
            store.configurations().saveModel(full);

            store.configurations().saveAgent(agent);

            assertThat(store.configurations().findAgent("triage")).contains(agent);
            assertThat(store.configurations().findAgent("triage").orElseThrow().toolCallPolicies())
                    .isEqualTo(policies);
        }

        @Test
        void aRemovedAgentIsGoneAndRemovingItAgainSaysSo() {
            store.configurations().saveModel(full);
            store.configurations().saveAgent(agent);

            assertThat(store.configurations().removeAgent("triage")).isTrue();

            assertThat(store.configurations().findAgent("triage")).isEmpty();
            assertThat(store.configurations().removeAgent("triage")).isFalse();
            assertThat(store.configurations().findModel("gpt-eu")).contains(full);
        }

        @Test
        void aStoreHasAgentsOnceOneIsSaved() {
            boolean before = store.configurations().hasAgents();
            store.configurations().saveModel(full);
            store.configurations().saveAgent(agent);

            assertThat(before).isFalse();
            assertThat(store.configurations().hasAgents()).isTrue();
        }

        @Test
        void savingAgainReplaces() {
            store.configurations().saveModel(full);
            store.configurations().saveModel(bare);
            store.configurations().saveAgent(agent);
            StoredAgentConfiguration changed = new StoredAgentConfiguration("triage", "", "replay", List.of(),
                    List.of(), null, "[]", 3, false);

            store.configurations().saveAgent(changed);

            assertThat(store.configurations().listAgents()).containsExactly(changed);
        }

        @Test
        void agentNamingAModelTheStoreLacksIsRejected() {
            assertThatThrownBy(() -> store.configurations().saveAgent(agent))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("names the model configuration \"gpt-eu\", which the store does not have");
        }

        @Test
        void savingAllAtOnceLetsAnAgentNameAModelSavedWithIt() {
            store.configurations().saveAll(List.of(full, bare), List.of(agent));

            assertThat(store.configurations().listModels()).containsExactly(full, bare);
            assertThat(store.configurations().listAgents()).containsExactly(agent);
        }

        @Test
        void savingAllSavesNothingWhenOneAgentFails() {
            StoredAgentConfiguration orphan = new StoredAgentConfiguration("orphan", "", "missing", List.of(),
                    List.of(), null, "[]", 3, false);

            assertThatThrownBy(() -> store.configurations().saveAll(List.of(full), List.of(agent, orphan)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("\"orphan\" names the model configuration \"missing\"");
            assertThat(store.configurations().listModels()).isEmpty();
            assertThat(store.configurations().listAgents()).isEmpty();
        }

        @Test
        void policiesThatAreNotAJsonArrayAreRejected() {
            store.configurations().saveModel(full);
            StoredAgentConfiguration broken = new StoredAgentConfiguration("triage", "", "gpt-eu", List.of(),
                    List.of(), null, "{\"name\": \"x\"}", 3, false);

            assertThatThrownBy(() -> store.configurations().saveAgent(broken))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("the tool-call policies must be a JSON array");
        }
    }

    @Nested
    class Queue {
        static final Instant LEASE = NOW.plusSeconds(60);

        void enqueue(String runId, Instant at) {
            store.runs().enqueue(runId, "triage", "maria", "Sort the tickets", false, at);
        }

        @Test
        void queuedRunIsHandedToOneWorkerOnly() {
            enqueue("r1", NOW);

            StoredRun claimed = store.runs().claimNext("w1", LEASE, NOW).taken().orElseThrow();

            assertThat(claimed.runId()).isEqualTo("r1");
            assertThat(claimed.status()).isEqualTo(RunStatus.RUNNING);
            assertThat(claimed.pausedState()).isNull();
            assertThat(store.runs().claimNext("w2", LEASE, NOW)).isEqualTo(RunQueue.NextRun.EMPTY);
        }

        @Test
        void oldestQueuedRunComesFirst() {
            enqueue("later", NOW.plusSeconds(1));
            enqueue("earlier", NOW);

            assertThat(store.runs().claimNext("w1", LEASE, NOW).taken().orElseThrow().runId()).isEqualTo("earlier");
        }

        @Test
        void concurrentClaimsNeverShareARun() throws Exception {
            IntStream.range(0, 40).forEach(i -> enqueue("r" + i, NOW.plusNanos(i)));
            List<String> claimed = new CopyOnWriteArrayList<>();
            List<Thread> workers = IntStream.range(0, 4).mapToObj(w -> new Thread(() -> {
                Optional<StoredRun> next;
                while ((next = store.runs().claimNext("w" + w, LEASE, NOW).taken()).isPresent()) {
                    claimed.add(next.get().runId());
                }
            })).toList();
            workers.forEach(Thread::start);
            for (Thread worker : workers) {
                worker.join();
            }

            assertThat(claimed).hasSize(40).doesNotHaveDuplicates();
        }

        @Test
        void renewedLeaseOutlivesAnUnrenewedOne() {
            enqueue("r1", NOW);
            enqueue("r2", NOW.plusNanos(1));
            store.runs().claimNext("w1", LEASE, NOW);
            store.runs().claimNext("w2", LEASE, NOW);

            assertThat(store.runs().renewLease("r1", "w1", LEASE.plusSeconds(60))).isTrue();

            assertThat(store.runs().recoverAbandoned(LEASE.plusSeconds(1))).extracting(StoredRun::runId)
                    .containsExactly("r2");
        }

        @Test
        void workerCannotRenewARunItDoesNotHold() {
            enqueue("r1", NOW);
            store.runs().claimNext("w1", LEASE, NOW);

            assertThat(store.runs().renewLease("r1", "w2", LEASE.plusSeconds(60))).isFalse();
        }

        @Test
        void runWithALiveLeaseIsNotRecovered() {
            enqueue("r1", NOW);
            store.runs().claimNext("w1", LEASE, NOW);

            assertThat(store.runs().recoverAbandoned(LEASE.minusSeconds(1))).isEmpty();
        }

        @Test
        void lapsedRunThatExecutedNothingGoesBackToTheQueue() {
            enqueue("r1", NOW);
            store.runs().claimNext("w1", LEASE, NOW);

            assertThat(store.runs().recoverAbandoned(LEASE.plusSeconds(1))).singleElement()
                    .satisfies(run -> assertThat(run.status()).isEqualTo(RunStatus.QUEUED));
            assertThat(store.runs().claimNext("w2", LEASE.plusSeconds(60), LEASE).taken().orElseThrow().runId())
                    .isEqualTo("r1");
        }

        @Test
        void lapsedRunWithAStartedCallIsFlaggedAndLeftForAPerson() {
            enqueue("r1", NOW);
            store.runs().claimNext("w1", LEASE, NOW);
            journal(store.runs(), "r1").beforeExecute("r1", "call-1", "fs_write");

            assertThat(store.runs().recoverAbandoned(LEASE.plusSeconds(1))).singleElement().satisfies(run -> {
                assertThat(run.status()).isEqualTo(RunStatus.OUTCOME_UNKNOWN);
                assertThat(run.unknownOutcomeCalls()).containsExactly("call-1");
            });
            assertThat(store.runs().recoverAbandoned(LEASE.plusSeconds(2))).isEmpty();
            assertThat(store.runs().claimNext("w2", LEASE, NOW).taken()).isEmpty();
        }

        @Test
        void restartReconciliationLeavesLeasedRunsToTheirWorker() {
            enqueue("r1", NOW);
            store.runs().claimNext("w1", LEASE, NOW);

            store.runs().reconcile(NOW);

            assertThat(store.runs().find("r1").orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
        }

        @Test
        void recordedOutcomeReleasesTheLease() {
            enqueue("r1", NOW);
            store.runs().claimNext("w1", LEASE, NOW);

            recordOutcome(store.runs(), completed("r1", "fs_read"), NOW);

            assertThat(store.runs().renewLease("r1", "w1", LEASE)).isFalse();
            assertThat(store.runs().find("r1").orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
        }

        @Test
        void recentCallsComeNewestRunFirstAndEachRunsLastCallFirst() {
            store.runs().create("old", "triage", "maria", "p", false, NOW);
            recordOutcome(store.runs(), completed("old", "fs_list", "fs_read"), NOW);
            store.runs().create("new", "triage", "maria", "p", false, NOW);
            recordOutcome(store.runs(), completed("new", "web_fetch", "fs_write"), NOW.plusSeconds(1));

            assertThat(store.runs().recentCalls(3)).extracting(ToolInvocationObservation::toolName)
                    .containsExactly("fs_write", "web_fetch", "fs_read");
        }

        private RunOutcome completed(String runId, String... tools) {
            ToolInvocationHistory history = ToolInvocationHistory.emptyComplete();
            for (String tool : tools) {
                history = history.with(new ToolInvocationObservation(tool, ToolInvocationObservation.Outcome.OK,
                        null));
            }
            return new RunOutcome.Completed(runId, "done", false, List.of(), history, RunCounters.ZERO);
        }
    }

    @Nested
    class Changes {

        @Test
        void listenerInTheSameStoreHearsASettingsChange() {
            List<ChangeKind> heard = new CopyOnWriteArrayList<>();
            store.changes().subscribe(heard::add);

            store.settings().setGroupEnabled("shell", false, ADMIN);

            await().atMost(Duration.ofMillis(200)).until(() -> heard.contains(ChangeKind.SETTINGS));
        }

        @Test
        void anotherStoreOnTheSameDatabaseHearsWithinASecond() {
            try (Store other = open()) {
                List<ChangeKind> heard = new CopyOnWriteArrayList<>();
                other.changes().subscribe(heard::add);

                store.users().ensureUser("ana");

                await().atMost(Duration.ofSeconds(1)).until(() -> heard.contains(ChangeKind.SETTINGS));
            }
        }

        @Test
        void aWorkerElsewhereHearsARunQueuedButNotARunStartedInAProcess() {
            try (Store other = open()) {
                AtomicInteger worker = new AtomicInteger();
                AtomicInteger screen = new AtomicInteger();
                other.changes().onQueueChange(worker::incrementAndGet);
                other.changes().onRunChange(screen::incrementAndGet);

                store.runs().create("started", "triage", "maria", "Sort the tickets", false, NOW);
                await().atMost(Duration.ofSeconds(1)).until(() -> screen.get() == 1);
                store.runs().enqueue("queued", "triage", "maria", "Sort the tickets", false, NOW);

                await().atMost(Duration.ofSeconds(1)).until(() -> worker.get() == 1 && screen.get() == 2);
                assertThat(worker.get()).isEqualTo(1);
            }
        }

        @Test
        void closedSubscriptionHearsNothingMore() {
            List<ChangeKind> heard = new CopyOnWriteArrayList<>();
            List<ChangeKind> control = new CopyOnWriteArrayList<>();
            store.changes().subscribe(heard::add).close();
            store.changes().subscribe(control::add);

            store.settings().setGroupEnabled("shell", false, ADMIN);

            await().atMost(Duration.ofMillis(200)).until(() -> !control.isEmpty());
            assertThat(heard).isEmpty();
        }

        @Test
        void closingWaitsForAListenerThatIsReadingTheStore() throws InterruptedException {
            Store other = open();
            CountDownLatch told = new CountDownLatch(1);
            List<Object> readAfterwards = new CopyOnWriteArrayList<>();
            other.changes().subscribe(kind -> {
                told.countDown();
                try {
                    Thread.sleep(150); // the store is being closed meanwhile
                    readAfterwards.add(other.settings().allowedHosts("web_fetch"));
                } catch (InterruptedException | RuntimeException e) {
                    readAfterwards.add(e);
                }
            });

            other.settings().setGroupEnabled("shell", false, ADMIN);
            assertThat(told.await(1, TimeUnit.SECONDS)).isTrue();
            other.close();

            assertThat(readAfterwards).singleElement().isInstanceOf(Optional.class);
        }
    }

    /** The strings of the first column of every row a query returns, read past the store. */
    List<String> column(String sql) throws SQLException {
        try (Connection connection = rawDataSource(location).getConnection();
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(sql)) {
            List<String> values = new ArrayList<>();
            while (rows.next()) {
                values.add(rows.getString(1));
            }
            return values;
        }
    }

    /** The run store's behaviour on one process's own runs: outcomes, lists, claims, releases, the journal. */
    @Nested
    class Runs {
        final TestRuns fixture = new TestRuns();
        final Instant later = NOW.plusSeconds(60);

        RunStore runs() {
            return store.runs();
        }

        StoredRun find(String runId) {
            return runs().find(runId).orElseThrow();
        }

        /** A new writer run at its first pause, recorded at the given time. */
        PausedState paused(String runId, Instant at) {
            runs().create(runId, "writer", "maria", "Tidy the notes", false, at);
            RunOutcome.WaitingForApproval pause = fixture.firstPause(runId);
            recordOutcome(runs(), pause, at);
            return pause.state();
        }

        /** Claims an approval of every waiting call and carries it out: the next pause, or the end. */
        RunOutcome approveAndResume(PausedState state, Instant at) {
            assertThat(runs().claim(approval(state, "jonas", at))).isInstanceOf(ClaimResult.Claimed.class);
            RunOutcome next = fixture.approve(state);
            recordOutcome(runs(), next, at);
            return next;
        }

        List<String> intents() throws SQLException {
            return column("SELECT call_id || ' ' || tool_name || ' ' || COALESCE(outcome, '-') FROM call_intents"
                    + " ORDER BY id");
        }

        @Test
        void newRunIsRunningWithNothingYetToShow() {
            runs().create("r1", "writer", "maria", "Tidy the notes", true, NOW);

            StoredRun run = find("r1");
            assertThat(run).extracting(StoredRun::status, StoredRun::agent, StoredRun::initiator, StoredRun::prompt,
                            StoredRun::unattended, StoredRun::createdAt, StoredRun::updatedAt)
                    .containsExactly(RunStatus.RUNNING, "writer", "maria", "Tidy the notes", true, NOW, NOW);
            assertThat(run.pausedState()).isNull();
            assertThat(run.transcript()).isEmpty();
            assertThat(run.lastDecision()).isNull();
        }

        @Test
        void pauseRoundTripsItsStateTranscriptHistoryAndCountersExactly() {
            runs().create("r1", "writer", "maria", "Tidy the notes", false, NOW);
            RunOutcome.WaitingForApproval pause = fixture.firstPause("r1");

            recordOutcome(runs(), pause, later);

            // read as another process reads it, which decodes what this one stored
            StoredRun run;
            try (Store other = open()) {
                run = other.runs().find("r1").orElseThrow();
            }
            assertThat(run.status()).isEqualTo(RunStatus.WAITING_FOR_APPROVAL);
            assertThat(run.pausedState()).isEqualTo(pause.state()).isNotSameAs(pause.state());
            assertThat(run.pausedState().digest()).isEqualTo(pause.state().digest());
            assertThat(run.transcript()).isEqualTo(pause.transcript());
            assertThat(run.history()).isEqualTo(pause.history());
            assertThat(run.history().observations()).hasSize(1);
            assertThat(run.counters()).isEqualTo(pause.counters());
            assertThat(run.waitingSince()).isEqualTo(later);
        }

        @Test
        void theProcessThatPausedARunReadsItsCardWithoutDecodingWhatItJustStored() {
            PausedState state = paused("r1", NOW);

            assertThat(find("r1").pausedState()).isSameAs(state);
        }

        @Test
        void inputPauseRoundTripsItsFields() {
            runs().create("r1", "asker", "maria", "File the bug", false, NOW);
            RunOutcome.WaitingForInput pause = fixture.inputPause("r1");

            recordOutcome(runs(), pause, later);

            assertThat(find("r1").status()).isEqualTo(RunStatus.WAITING_FOR_INPUT);
            assertThat(find("r1").pausedState()).isEqualTo(pause.state());
        }

        @Test
        void completionKeepsTheWholeTranscriptAndHistoryAndDropsThePause() {
            PausedState first = paused("r1", NOW);
            RunOutcome second = approveAndResume(first, NOW.plusSeconds(1));

            RunOutcome done = approveAndResume(((RunOutcome.Paused) second).state(), later);

            StoredRun run = find("r1");
            assertThat(run.status()).isEqualTo(RunStatus.COMPLETED);
            assertThat(run.pausedState()).isNull();
            assertThat(run.waitingSince()).isNull();
            assertThat(run.transcript()).isEqualTo(done.transcript());
            assertThat(run.history()).isEqualTo(done.history());
            assertThat(run.history().observations()).hasSize(3);
            assertThat(run.counters()).isEqualTo(done.counters());
            assertThat(run.updatedAt()).isEqualTo(later);
        }

        @ParameterizedTest
        @ValueSource(strings = {" ", "Fs read!"})
        void aStoredObservationWithABlankOrMalformedToolNameLoadsAsIncompleteAndStaysSoAfterAppends(String tool)
                throws Exception {
            paused("r1", NOW);
            ObjectNode stored = (ObjectNode) Json.mapper().readTree(
                    column("SELECT paused_state FROM runs WHERE id = 'r1'").get(0));
            ((ArrayNode) stored.get("history").get("observations")).addObject().put("tool", tool)
                    .put("outcome", "ok").putNull("target");
            execute("UPDATE runs SET paused_state = '" + stored.toString().replace("'", "''") + "' WHERE id = 'r1'");

            StoredRun loaded = find("r1");
            assertThat(loaded.history().complete()).isFalse();
            assertThat(loaded.history().observations()).extracting(ToolInvocationObservation::toolName)
                    .doesNotContain(tool);
            RunOutcome second = approveAndResume(loaded.pausedState(), NOW.plusSeconds(1));
            assertThat(find("r1").history().observations()).hasSizeGreaterThan(loaded.history().observations().size());
            assertThat(find("r1").history().complete()).isFalse();
            approveAndResume(((RunOutcome.Paused) second).state(), later);
            assertThat(find("r1").status()).isEqualTo(RunStatus.COMPLETED);
            assertThat(find("r1").history().complete()).isFalse();
        }

        @Test
        void aFinishedRunsStoredHistoryWithABlankToolNameLoadsAsIncomplete() throws Exception {
            runs().create("r1", "writer", "maria", "Tidy the notes", false, NOW);
            execute("UPDATE runs SET history = '{\"complete\": true, \"observations\": ["
                    + "{\"tool\": \"fs_read\", \"outcome\": \"ok\", \"target\": null},"
                    + "{\"tool\": \"\", \"outcome\": \"ok\", \"target\": null}]}' WHERE id = 'r1'");

            assertThat(find("r1").history().complete()).isFalse();
            assertThat(find("r1").history().observations()).extracting(ToolInvocationObservation::toolName)
                    .containsExactly("fs_read");
        }

        @Test
        void failureKeepsItsReasonAndMessage() {
            runs().create("r1", "writer", "maria", "Tidy the notes", false, NOW);

            recordOutcome(runs(), new RunOutcome.Failed("r1", "provider_failed", "the provider answered 503",
                    List.of(ChatMessage.user("Tidy the notes")), ToolInvocationHistory.emptyComplete(),
                    RunCounters.ZERO), later);

            assertThat(find("r1")).extracting(StoredRun::status, StoredRun::failureReason, StoredRun::failureMessage)
                    .containsExactly(RunStatus.FAILED, "provider_failed", "the provider answered 503");
        }

        @Test
        void waitingListsApprovalAndInputPausesOldestWaitFirst() {
            paused("late", NOW.plusSeconds(30));
            runs().create("input", "asker", "maria", "File the bug", false, NOW);
            recordOutcome(runs(), fixture.inputPause("input"), NOW.plusSeconds(20));
            paused("early", NOW.plusSeconds(10));
            runs().create("running", "writer", "maria", "Tidy the notes", false, NOW);

            assertThat(runs().waiting()).extracting(StoredRun::runId).containsExactly("early", "input", "late");
        }

        @Test
        void waitingSummariesAreWhatTheWaitingRunsPausedStatesSay() {
            paused("late", NOW.plusSeconds(30));
            runs().create("input", "asker", "maria", "File the bug", false, NOW);
            RunOutcome.WaitingForInput form = fixture.inputPause("input");
            recordOutcome(runs(), form, NOW.plusSeconds(20));
            paused("early", NOW.plusSeconds(10));
            runs().create("running", "writer", "maria", "Tidy the notes", false, NOW);

            List<WaitingRun> summaries = runs().waitingSummaries();

            assertThat(summaries).isEqualTo(runs().waiting().stream().map(WaitingRun::of).toList());
            assertThat(summaries).extracting(WaitingRun::runId).containsExactly("early", "input", "late");
            assertThat(summaries.get(1).waitingTools()).containsExactly(form.state().inputCall().call().name());
            assertThat(summaries.get(1).digest()).isEqualTo(form.state().digest());
        }

        @Test
        void aRunPausedBeforeTheSummaryWasKeptIsSummarizedFromItsPausedState() throws SQLException {
            paused("old", NOW.plusSeconds(10));
            paused("new", NOW.plusSeconds(20));
            execute("UPDATE runs SET waiting_tools = NULL, refused_count = NULL WHERE id = 'old'");

            assertThat(runs().waitingSummaries())
                    .isEqualTo(runs().waiting().stream().map(WaitingRun::of).toList());
        }

        @Test
        void recentListsRunsOfEveryStatusNewestUpdateFirst() {
            paused("a", NOW.plusSeconds(10));
            runs().create("b", "writer", "maria", "Tidy the notes", false, NOW.plusSeconds(30));
            paused("c", NOW.plusSeconds(20));

            assertThat(runs().recent(2)).extracting(RunSummary::runId).containsExactly("b", "c");
        }

        @Test
        void recentRejectsALimitBelowOne() {
            assertThatThrownBy(() -> runs().recent(0)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("limit must be at least 1, got 0");
        }

        @Test
        void claimOnTheShownCardCommitsTheDecisionAndTheRunRuns() {
            PausedState state = paused("r1", NOW);
            Decision decision = approval(state, "jonas", later);

            ClaimResult result = runs().claim(decision);

            assertThat(result).isInstanceOfSatisfying(ClaimResult.Claimed.class, claimed -> {
                assertThat(claimed.run().status()).isEqualTo(RunStatus.RUNNING);
                assertThat(claimed.run().lastDecision()).isEqualTo(decision);
                assertThat(claimed.run().pausedState()).isEqualTo(state);
            });
            assertThat(find("r1").lastDecision()).isEqualTo(decision);
        }

        @Test
        void inputDecisionKeepsItsValues() {
            runs().create("r1", "asker", "maria", "File the bug", false, NOW);
            RunOutcome.WaitingForInput pause = fixture.inputPause("r1");
            recordOutcome(runs(), pause, NOW);
            Decision decision = input(pause.state(), "jonas", later);

            runs().claim(decision);

            assertThat(find("r1").lastDecision()).isEqualTo(decision);
            assertThat(((Decision.Input) find("r1").lastDecision()).values()).isEqualTo(TestRuns.args("summary", "Sync stalls"));
        }

        @Test
        void claimOnAnotherCardOfAWaitingRunIsStaleAndNamesTheCurrentCard() {
            PausedState state = paused("r1", NOW);

            ClaimResult result = runs().claim(Decision.approval("r1", "jonas", later, "0".repeat(64),
                    List.of(Decision.CallVerdict.approve(0))));

            assertThat(result).isEqualTo(new DecisionResult.Stale(state.runId(), state.digest()));
            assertThat(find("r1").status()).isEqualTo(RunStatus.WAITING_FOR_APPROVAL);
        }

        @Test
        void secondClaimOnTheSamePauseIsToldWhoWon() throws SQLException {
            PausedState state = paused("r1", NOW);
            Decision winner = approval(state, "jonas", later);
            runs().claim(winner);

            ClaimResult late = runs().claim(approval(state, "ana", later.plusSeconds(1)));

            assertThat(late).isEqualTo(new DecisionResult.AlreadyDecided(winner));
            assertThat(column("SELECT decided_by FROM decisions")).containsExactly("jonas");
        }

        @Test
        void ofClaimsRacingOnOneCardOneWinsAndTheOthersAreToldWhoWon() throws Exception {
            int deciders = 4;
            ExecutorService pool = Executors.newFixedThreadPool(deciders);
            try {
                for (int card = 0; card < 10; card++) {
                    PausedState state = paused("r" + card, NOW);
                    CountDownLatch start = new CountDownLatch(1);
                    List<Future<ClaimResult>> claims = new ArrayList<>();
                    for (int decider = 0; decider < deciders; decider++) {
                        Decision decision = approval(state, "decider-" + decider, later);
                        claims.add(pool.submit(() -> {
                            start.await();
                            return runs().claim(decision);
                        }));
                    }
                    start.countDown();
                    List<ClaimResult> results = new ArrayList<>();
                    for (Future<ClaimResult> claim : claims) {
                        results.add(claim.get());
                    }

                    Decision winner = find("r" + card).lastDecision();
                    assertThat(results).filteredOn(ClaimResult.Claimed.class::isInstance).hasSize(1);
                    assertThat(results).filteredOn(result -> !(result instanceof ClaimResult.Claimed))
                            .containsOnly(new DecisionResult.AlreadyDecided(winner));
                }
            } finally {
                pool.shutdownNow();
            }
        }

        @Test
        void claimForAWorkerQueuesTheRunWithItsDecision() {
            PausedState state = paused("r1", NOW);
            Decision decision = approval(state, "jonas", later);

            ClaimResult result = store.runs().claimForWorker(decision);

            assertThat(result).isInstanceOfSatisfying(ClaimResult.Claimed.class, claimed -> {
                assertThat(claimed.run().status()).isEqualTo(RunStatus.QUEUED);
                assertThat(claimed.run().lastDecision()).isEqualTo(decision);
            });
            StoredRun next = store.runs().claimNext("w1", later.plusSeconds(30), later).taken().orElseThrow();
            assertThat(next.runId()).isEqualTo("r1");
            assertThat(next.lastDecision()).isEqualTo(decision);
        }

        @Test
        void aDecisionQueuedForAWorkerGoesBeforeNewRunsQueuedEarlier() {
            store.runs().enqueue("new", "triage", "maria", "Sort the tickets", false, NOW);
            store.runs().enqueue("newer", "triage", "maria", "Sort the tickets again", false, NOW.plusSeconds(1));
            store.runs().claimForWorker(approval(paused("decided", NOW), "jonas", later));

            List<String> order = new ArrayList<>();
            Optional<StoredRun> next;
            while ((next = store.runs().claimNext("w1", later.plusSeconds(30), later).taken()).isPresent()) {
                order.add(next.get().runId());
            }

            assertThat(order).containsExactly("decided", "new", "newer");
        }

        @Test
        void lateDecisionOnACardWhoseRunMovedOnToItsNextPauseIsAlreadyDecided() {
            PausedState first = paused("r1", NOW);
            Decision winner = approval(first, "jonas", later);
            runs().claim(winner);
            recordOutcome(runs(), fixture.approve(first), later);

            ClaimResult late = runs().claim(approval(first, "ana", later.plusSeconds(1)));

            assertThat(find("r1").status()).isEqualTo(RunStatus.WAITING_FOR_APPROVAL);
            assertThat(late).isEqualTo(new DecisionResult.AlreadyDecided(winner));
        }

        @Test
        void lateDecisionOnAFinishedRunsLastCardIsAlreadyDecided() {
            PausedState first = paused("r1", NOW);
            PausedState second = ((RunOutcome.Paused) approveAndResume(first, NOW)).state();
            approveAndResume(second, later);

            ClaimResult late = runs().claim(approval(second, "ana", later.plusSeconds(1)));

            assertThat(late).isInstanceOfSatisfying(DecisionResult.AlreadyDecided.class, decided ->
                    assertThat(decided.winner().digest()).isEqualTo(second.digest()));
        }

        @Test
        void decisionOfTheOtherKindIsNotWaiting() {
            PausedState state = paused("r1", NOW);

            assertThat(runs().claim(input(state, "jonas", later)))
                    .isEqualTo(new DecisionResult.NotWaiting("r1", RunStatus.WAITING_FOR_APPROVAL));
        }

        @Test
        void decisionOnAnUnknownRunIsNotWaiting() {
            assertThat(runs().claim(Decision.approval("nope", "jonas", later, "0".repeat(64),
                    List.of(Decision.CallVerdict.approve(0)))))
                    .isEqualTo(new DecisionResult.NotWaiting("nope", null));
        }

        @Test
        void decisionOnAFinishedRunThatNoneWasTakenOnIsNotWaiting() {
            runs().create("r1", "writer", "maria", "Tidy the notes", false, NOW);
            recordOutcome(runs(), new RunOutcome.Cancelled("r1", List.of(), ToolInvocationHistory.emptyComplete(),
                    RunCounters.ZERO), NOW);

            assertThat(runs().claim(Decision.approval("r1", "jonas", later, "0".repeat(64),
                    List.of(Decision.CallVerdict.approve(0)))))
                    .isEqualTo(new DecisionResult.NotWaiting("r1", RunStatus.CANCELLED));
        }

        @Test
        void claimedDecisionIsAnnounced() {
            PausedState state = paused("r1", NOW);
            List<ChangeKind> heard = new CopyOnWriteArrayList<>();
            store.changes().subscribe(heard::add);

            runs().claim(approval(state, "jonas", later));

            await().atMost(Duration.ofMillis(500)).until(() -> heard.contains(ChangeKind.DECISION));
        }

        @Test
        void refusedClaimWakesNoConsole() {
            PausedState state = paused("r1", NOW);
            List<ChangeKind> before = new CopyOnWriteArrayList<>();
            store.changes().subscribe(before::add);
            runs().claim(approval(state, "jonas", later));
            // Announcements are delivered in order: once this one is out, the next listener hears only later ones.
            await().atMost(Duration.ofMillis(500)).until(() -> before.contains(ChangeKind.DECISION));
            List<ChangeKind> heard = new CopyOnWriteArrayList<>();
            store.changes().subscribe(heard::add);

            runs().claim(approval(state, "ana", later));
            store.settings().setGroupEnabled("shell", false, ADMIN);

            await().atMost(Duration.ofMillis(500)).until(() -> heard.contains(ChangeKind.SETTINGS));
            assertThat(heard).containsExactly(ChangeKind.SETTINGS);
        }

        @Test
        void releasedRunWaitsAgainAndItsPauseCanBeDecidedAgain() throws SQLException {
            PausedState state = paused("r1", NOW);
            runs().claim(approval(state, "jonas", later));

            release(runs(), state, later);

            assertThat(find("r1").status()).isEqualTo(RunStatus.WAITING_FOR_APPROVAL);
            assertThat(find("r1").lastDecision()).isNull();
            assertThat(runs().claim(approval(state, "ana", later))).isInstanceOf(ClaimResult.Claimed.class);
            assertThat(column("SELECT decided_by FROM decisions")).containsExactly("ana");
        }

        @Test
        void decisionEventOfAClaimedDecisionIsRecordedOnceHoweverOftenItIsCarriedOut() {
            PausedState state = paused("r1", NOW);
            runs().claim(approval(state, "jonas", later));

            store.events().record(decisionEvent("first", "r1", later));
            store.events().record(decisionEvent("again", "r1", later.plusSeconds(5)));

            assertThat(decisionEventIds("r1")).containsExactly("first");
        }

        @Test
        void decisionTakenAgainOnAReleasedPauseGetsItsOwnEvent() {
            PausedState state = paused("r1", NOW);
            runs().claim(approval(state, "jonas", later));
            store.events().record(decisionEvent("jonas-decided", "r1", later));
            release(runs(), state, later);

            runs().claim(approval(state, "ana", later.plusSeconds(1)));
            store.events().record(decisionEvent("ana-decided", "r1", later.plusSeconds(1)));

            assertThat(decisionEventIds("r1")).containsExactly("ana-decided", "jonas-decided");
        }

        @Test
        void decisionEventOfARunWithoutAClaimedDecisionIsRecorded() {
            paused("r1", NOW);

            store.events().record(decisionEvent("unclaimed", "r1", later));
            store.events().record(decisionEvent("unclaimed-too", "r1", later.plusSeconds(1)));

            assertThat(decisionEventIds("r1")).containsExactly("unclaimed-too", "unclaimed");
        }

        @Test
        void claimCommitsTheDecisionsEventAndTheIntentsOfItsCallsInOneDurableCommit() throws SQLException {
            PausedState state = paused("r1", NOW);
            StoreCommits before = store.commits();

            ClaimResult claim = runs().claim(approval(state, "jonas", later), new DecisionStart(
                    decisionEvent("with-claim", "r1", later), List.of(new ExecutionJournal.Intent("c1", "write"))));

            assertThat(claim).isInstanceOf(ClaimResult.Claimed.class);
            assertThat(store.commits().since(before)).isEqualTo(new StoreCommits(1, 0));
            assertThat(intents()).containsExactly("c1 write -");
            assertThat(decisionEventIds("r1")).containsExactly("with-claim");
            runs().begin(lease(runs(), "r1"), new DecisionStart(decisionEvent("again", "r1", later), List.of()));
            assertThat(decisionEventIds("r1")).as("one event per decision").containsExactly("with-claim");
        }

        @Test
        void refusedClaimWritesNothingOfItsStart() throws SQLException {
            PausedState state = paused("r1", NOW);
            runs().claim(approval(state, "jonas", later));

            ClaimResult late = runs().claim(approval(state, "ana", later), new DecisionStart(
                    decisionEvent("late", "r1", later), List.of(new ExecutionJournal.Intent("c1", "write"))));

            assertThat(late).isInstanceOf(DecisionResult.AlreadyDecided.class);
            assertThat(intents()).isEmpty();
            assertThat(decisionEventIds("r1")).isEmpty();
        }

        @Test
        void runLoopsEventsAreCommittedWithoutWaitingForTheDiskAndADecisionsEventDurably() {
            PausedState state = paused("r1", NOW);
            runs().claim(approval(state, "jonas", later));
            StoreCommits before = store.commits();

            store.events().forRunLoop().record(event("denied", later).type(EventType.INVOCATION_DENIED).run("r1")
                    .agent("writer").actor("maria").tool("fs_delete").reason("outside_workspace").build());
            assertThat(store.commits().since(before)).isEqualTo(new StoreCommits(0, 1));
            store.events().forRunLoop().record(decisionEvent("decided", "r1", later));

            assertThat(store.commits().since(before)).isEqualTo(new StoreCommits(1, 1));
            assertThat(store.events().page(EventFilter.all().withRunId("r1"), PageRequest.first(10)).events())
                    .extracting(GovernanceEvent::id).containsExactlyInAnyOrder("denied", "decided");
        }

        @Test
        void newRunIsRecordedWithoutWaitingForTheDiskAndItsPauseDurably() {
            StoreCommits before = store.commits();

            RunLease lease = runs().create("r1", "writer", "maria", "Tidy the notes", false, NOW);
            assertThat(store.commits().since(before)).isEqualTo(new StoreCommits(0, 1));
            runs().recordOutcome(lease, fixture.firstPause("r1"), NOW);

            assertThat(store.commits().since(before)).isEqualTo(new StoreCommits(1, 1));
        }

        @Test
        void aRunDrivenOnNoDecisionCannotBeHandedBackNorPutBackToWaiting() {
            RunLease lease = runs().create("r1", "writer", "maria", "Tidy the notes", false, NOW);
            PausedState card = fixture.firstPause("r1").state();

            assertThatThrownBy(() -> runs().handBack(lease, NOW))
                    .isInstanceOf(RunLifecycle.ImpossibleTransitionException.class)
                    .hasMessageStartingWith("run r1: a run that is running cannot be handed back (it can only ");
            assertThatThrownBy(() -> runs().release(lease, card, NOW))
                    .isInstanceOf(RunLifecycle.ImpossibleTransitionException.class)
                    .hasMessageStartingWith("run r1: a run that is running cannot be put back to waiting for"
                            + " approval");
            assertThat(find("r1").status()).isEqualTo(RunStatus.RUNNING);
            assertThat(find("r1").epoch()).isEqualTo(lease.epoch());
        }

        @Test
        void driverWhoseRunWasTakenOverSinceWritesNothingMore() throws SQLException {
            PausedState state = paused("r1", NOW);
            runs().claim(approval(state, "jonas", later));
            RunLease first = lease(runs(), "r1");
            runs().release(first, state, later);
            runs().claim(approval(state, "ana", later));
            RunLease second = lease(runs(), "r1");

            assertThat(second.epoch()).isGreaterThan(first.epoch());
            assertThatThrownBy(() -> runs().journal(first).beforeExecute("r1", "c1", "write"))
                    .isInstanceOf(RunTakenOverException.class)
                    .hasMessage("run r1 is not driven by this driver (it was taken over by another driver in this"
                            + " process (epoch " + second.epoch() + ", this driver's " + first.epoch() + ")); call c1"
                            + " was not started");
            assertThatThrownBy(() -> runs().recordOutcome(first, fixture.approve(state), later))
                    .isInstanceOf(RunTakenOverException.class);
            assertThat(intents()).isEmpty();
            runs().journal(second).beforeExecute("r1", "c1", "write");
            assertThat(intents()).containsExactly("c1 write -");
        }

        @Test
        void workerThreadThatLostItsRunToRecoveryHasItsKeptBackOutcomesRefused() throws SQLException {
            runs().enqueue("r1", "writer", "maria", "Tidy the notes", false, NOW);
            RunLease frozen = runs().claimNext("w1", NOW.plusSeconds(1), NOW).taken().orElseThrow().lease();
            ExecutionJournal journal = runs().journal(frozen);
            journal.beforeExecute("r1", "c1", "write");
            journal.afterExecute("r1", "c1", ToolInvocationObservation.Outcome.OK);

            assertThat(runs().recoverAbandoned(later)).singleElement()
                    .satisfies(run -> assertThat(run.unknownOutcomeCalls()).containsExactly("c1"));

            assertThatThrownBy(() -> journal.beforeModelCall("r1")).isInstanceOf(RunTakenOverException.class)
                    .hasMessageContaining("the model is not asked again");
            assertThatThrownBy(() -> journal.beforeExecute("r1", "c2", "write"))
                    .isInstanceOf(RunTakenOverException.class);
            assertThat(intents()).containsExactly("c1 write -");
        }

        private GovernanceEvent decisionEvent(String id, String runId, Instant at) {
            return event(id, at).type(EventType.APPROVAL_DECIDED).run(runId).agent("writer").actor("jonas")
                    .detail("approved 1, denied 0").build();
        }

        private List<String> decisionEventIds(String runId) {
            return store.events().page(EventFilter.all().withRunId(runId).ofTypes(Set.of(EventType.APPROVAL_DECIDED)),
                    PageRequest.first(10)).events().stream().map(GovernanceEvent::id).toList();
        }

        @Test
        void releaseWithChangedPreviewsShowsTheChangedCard() {
            PausedState state = paused("r1", NOW);
            runs().claim(approval(state, "jonas", later));
            PausedState changed = state.toBuilder().calls(state.calls().stream().map(call -> call.withPreview(
                    new ToolPreview(List.of("+changed meanwhile")), true)).toList()).build();

            release(runs(), changed, later);

            assertThat(find("r1").pausedState()).isEqualTo(changed);
            assertThat(runs().claim(approval(state, "ana", later)))
                    .isEqualTo(new DecisionResult.Stale(changed.runId(), changed.digest()));
        }

        @Test
        void runReadAtOnePauseShowsItsNextPauseOnceItPausedAgain() {
            PausedState first = paused("r1", NOW);
            assertThat(find("r1").pausedState()).isEqualTo(first);
            runs().claim(approval(first, "jonas", later));
            RunOutcome.WaitingForApproval next = (RunOutcome.WaitingForApproval) fixture.approve(first);

            recordOutcome(runs(), next, later);

            assertThat(find("r1").pausedState()).isEqualTo(next.state()).isNotEqualTo(first);
        }

        @Test
        void runNobodyClaimedCannotBeReleased() {
            PausedState state = paused("r1", NOW);

            assertThatThrownBy(() -> release(runs(), state, later)).isInstanceOf(IllegalStateException.class)
                    .hasMessage("run r1 is not driven by this process (it is waiting_for_approval); it cannot be put"
                            + " back to waiting");
        }

        @Test
        void journalRecordsTheIntentBeforeAndTheOutcomeBeforeTheModelIsAskedAgain() throws SQLException {
            PausedState state = paused("r1", NOW);
            runs().claim(approval(state, "jonas", later));
            ExecutionJournal journal = journal(runs(), "r1");

            journal.beforeExecute("r1", "c1", "write");
            assertThat(intents()).containsExactly("c1 write -");
            journal.afterExecute("r1", "c1", ToolInvocationObservation.Outcome.OK);
            assertThat(intents()).as("kept back until the model is asked").containsExactly("c1 write -");
            journal.beforeModelCall("r1");

            assertThat(intents()).containsExactly("c1 write ok");
        }

        @Test
        void recordedOutcomeClearsTheJournal() throws SQLException {
            PausedState state = paused("r1", NOW);
            runs().claim(approval(state, "jonas", later));
            ExecutionJournal journal = journal(runs(), "r1");
            journal.beforeExecute("r1", "c1", "write");
            journal.afterExecute("r1", "c1", ToolInvocationObservation.Outcome.OK);
            journal.beforeModelCall("r1");

            recordOutcome(runs(), fixture.approve(state), later);

            assertThat(intents()).isEmpty();
        }

        @Test
        void noCallStartsOnARunThisProcessDoesNotDrive() throws SQLException {
            paused("r1", NOW);

            assertThatThrownBy(() -> journal(runs(), "r1").beforeExecute("r1", "c1", "write"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageEndingWith("; call c1 was not started");
            assertThat(intents()).isEmpty();
        }

        @Test
        void anotherProcessCannotRecordTheOutcomeOfARunThisOneDrives() {
            PausedState state = paused("r1", NOW);
            runs().claim(approval(state, "jonas", later));

            try (Store other = open()) {
                assertThatThrownBy(() -> recordOutcome(other.runs(), fixture.approve(state), later))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("is not driven by this process");
            }
            assertThat(find("r1").status()).isEqualTo(RunStatus.RUNNING);
        }
    }

    /** Start-up reconciliation of the runs other processes left running, and settling an unknown outcome. */
    @Nested
    class Reconciliation {
        final TestRuns fixture = new TestRuns();
        final Instant later = NOW.plusSeconds(60);

        StoredRun find(String runId) {
            return store.runs().find(runId).orElseThrow();
        }

        /** Does the work in a second store, as another process would, and closes it: that process stopped. */
        void inAProcessThatStops(Consumer<RunStore> work) {
            try (Store other = open()) {
                work.accept(other.runs());
            }
        }

        /** Pauses a writer run in the given store and claims an approval of it; returns the claimed decision. */
        Decision claimed(RunStore runs, String runId) {
            runs.create(runId, "writer", "maria", "Tidy the notes", false, NOW);
            RunOutcome.WaitingForApproval pause = fixture.firstPause(runId);
            recordOutcome(runs, pause, NOW);
            Decision decision = approval(pause.state(), "jonas", NOW);
            assertThat(runs.claim(decision)).isInstanceOf(ClaimResult.Claimed.class);
            return decision;
        }

        /** A run whose process stopped while call c1 executed. */
        void flagged(String runId) {
            inAProcessThatStops(runs -> {
                claimed(runs, runId);
                journal(runs, runId).beforeExecute(runId, "c1", "write");
            });
            store.runs().reconcile(later);
        }

        void setOwnerSession(String runId, String assignments) throws SQLException {
            execute("UPDATE store_sessions SET " + assignments
                    + " WHERE id = (SELECT owner FROM runs WHERE id = '" + runId + "')");
        }

        /** A gateway run paused at its first card, in the given store: that store's process holds its host. */
        void hostedCard(RunStore runs, String runId) {
            runs.createHosted(runId, "writer", "maria", "MCP host desk-host 1.0", NOW);
            recordOutcome(runs, fixture.firstPause(runId), NOW);
        }

        @Test
        void aGatewayRunWhoseGatewayStoppedWhileItsCardWaitedEndsOnceWithTheReason() {
            inAProcessThatStops(runs -> hostedCard(runs, "g1"));

            assertThat(store.runs().withoutGateway()).containsExactly("g1");
            assertThat(store.runs().endWithoutGateway("g1", later)).isTrue();

            StoredRun ended = find("g1");
            assertThat(ended.status()).isEqualTo(RunStatus.FAILED);
            assertThat(ended.failureReason()).isEqualTo("gateway_stopped");
            assertThat(ended.failureMessage()).isEqualTo("the gateway holding this host's connection stopped;"
                    + " nothing can be carried out");
            assertThat(ended.pausedState()).isNull();
            assertThat(store.runs().waiting()).isEmpty();
            assertThat(store.runs().withoutGateway()).isEmpty();
            assertThat(store.runs().endWithoutGateway("g1", later)).isFalse();
        }

        @Test
        void aGatewayRunOfALiveGatewayIsNotWithoutItsGateway() {
            hostedCard(store.runs(), "g1");

            assertThat(store.runs().withoutGateway()).isEmpty();
            assertThat(store.runs().endWithoutGateway("g1", later)).isFalse();
            assertThat(find("g1").status()).isEqualTo(RunStatus.WAITING_FOR_APPROVAL);
        }

        @Test
        void aDecisionLeftForALiveGatewayIsNeverTakenOverByAnotherProcess() {
            hostedCard(store.runs(), "g1");
            inAProcessThatStops(decider -> {
                StoredRun waiting = decider.find("g1").orElseThrow();
                ClaimResult claim = decider.claim(approval(waiting.pausedState(), "jonas", NOW));
                decider.handBack(((ClaimResult.Claimed) claim).run().lease(), NOW);
            });

            try (Store other = open()) {
                assertThat(other.runs().reconcile(later)).isEmpty();
            }

            assertThat(store.runs().handedBack()).singleElement()
                    .satisfies(run -> assertThat(run.runId()).isEqualTo("g1"));
            assertThat(store.runs().takeOver("g1", later)).isPresent();
        }

        @Test
        void aDecisionLeftForAGatewayThatStoppedEndsTheRunAtReconciliationAndNothingResumes() {
            inAProcessThatStops(runs -> hostedCard(runs, "g1"));
            StoredRun waiting = find("g1");
            ClaimResult claim = store.runs().claim(approval(waiting.pausedState(), "jonas", NOW));
            store.runs().handBack(((ClaimResult.Claimed) claim).run().lease(), NOW);

            assertThat(store.runs().reconcile(later)).isEmpty();

            assertThat(find("g1").status()).isEqualTo(RunStatus.FAILED);
            assertThat(find("g1").failureReason()).isEqualTo("gateway_stopped");
            assertThat(store.runs().handedBack()).isEmpty();
        }

        @Test
        void aGatewayRunWhoseGatewayStoppedDuringACallIsFlaggedNeverResumed() {
            inAProcessThatStops(runs -> {
                hostedCard(runs, "g1");
                StoredRun waiting = runs.find("g1").orElseThrow();
                assertThat(runs.claim(approval(waiting.pausedState(), "jonas", NOW)))
                        .isInstanceOf(ClaimResult.Claimed.class);
                journal(runs, "g1").beforeExecute("g1", "c1", "write");
            });

            assertThat(store.runs().reconcile(later)).isEmpty();

            StoredRun flagged = find("g1");
            assertThat(flagged.status()).isEqualTo(RunStatus.OUTCOME_UNKNOWN);
            assertThat(flagged.unknownOutcomeCalls()).containsExactly("c1");
            assertThat(store.runs().withoutGateway()).isEmpty();
            assertThat(store.runs().reconcile(later)).isEmpty();
        }

        @Test
        void retryingAGatewayRunFlaggedWhenItsGatewayStoppedEndsItAsGatewayStoppedInsteadOfWaiting() {
            inAProcessThatStops(runs -> {
                hostedCard(runs, "g1");
                StoredRun waiting = runs.find("g1").orElseThrow();
                runs.claim(approval(waiting.pausedState(), "jonas", NOW));
                journal(runs, "g1").beforeExecute("g1", "c1", "write");
            });
            store.runs().reconcile(later);

            StoredRun settled = store.runs().settleUnknownOutcome("g1", true, "jonas", later);

            assertThat(settled.status()).isEqualTo(RunStatus.FAILED);
            assertThat(settled.failureReason()).isEqualTo("gateway_stopped");
            assertThat(settled.failureMessage()).isEqualTo("the gateway holding this host's connection stopped;"
                    + " nothing can be carried out; the outcome of c1 stays unknown");
            assertThat(settled.outcomeUnknown()).isFalse();
            assertThat(settled.pausedState()).isNull();
            assertThat(store.runs().waiting()).isEmpty();
            assertThat(store.runs().withoutGateway()).isEmpty();
        }

        @Test
        void committedDecisionWithAnEmptyJournalIsReturnedToBeCarriedOutAgain() {
            Decision[] decision = new Decision[1];
            inAProcessThatStops(runs -> decision[0] = claimed(runs, "r1"));

            List<StoredRun> toResume = store.runs().reconcile(later);

            assertThat(toResume).singleElement().satisfies(run -> {
                assertThat(run.status()).isEqualTo(RunStatus.RUNNING);
                assertThat(run.lastDecision()).isEqualTo(decision[0]);
                assertThat(run.pausedState().digest()).isEqualTo(decision[0].digest());
                assertThat(run.outcomeUnknown()).isFalse();
            });
        }

        @Test
        void aHandedBackRunKeepsItsDecisionUntilTheNextReconciliationTakesItOver() {
            Decision decision = claimed(store.runs(), "r1");
            RunLease lease = store.runs().find("r1").orElseThrow().lease();

            store.runs().handBack(lease, later);

            assertThat(store.runs().handedBack()).singleElement().satisfies(run -> {
                assertThat(run.status()).isEqualTo(RunStatus.RUNNING);
                assertThat(run.lastDecision()).isEqualTo(decision);
            });
            try (Store other = open()) {
                assertThat(other.runs().reconcile(later)).singleElement()
                        .satisfies(run -> assertThat(run.lastDecision()).isEqualTo(decision));
                assertThat(other.runs().handedBack()).isEmpty();
                assertThatThrownBy(() -> store.runs().handBack(lease, later))
                        .isInstanceOf(RunTakenOverException.class).hasMessageContaining("not driven by this process");
            }
        }

        @Test
        void theProcessThatAloneCanCarryOutAHandedBackDecisionTakesThatRunOverOnce() {
            Decision decision = claimed(store.runs(), "r1");
            RunLease lease = store.runs().find("r1").orElseThrow().lease();
            store.runs().handBack(lease, later);

            try (Store gateway = open()) {
                StoredRun taken = gateway.runs().takeOver("r1", later).orElseThrow();

                assertThat(taken.lastDecision()).isEqualTo(decision);
                assertThat(taken.lease().epoch()).isGreaterThan(lease.epoch());
                assertThat(gateway.runs().handedBack()).isEmpty();
                assertThat(store.runs().takeOver("r1", later)).isEmpty();
                assertThat(store.runs().reconcile(later)).isEmpty();
                gateway.runs().release(taken.lease(), taken.pausedState(), later);
            }
            assertThat(store.runs().find("r1").orElseThrow().status()).isEqualTo(RunStatus.WAITING_FOR_APPROVAL);
            assertThat(store.runs().takeOver("r1", later)).isEmpty();
        }

        @Test
        void aStoreOpenedWithoutDrivingRunsRegistersNothingAndRefusesToDriveARun() {
            try (Store reader = Store.open(location, StoreOptions.defaults().withoutDrivingRuns())) {
                assertThatThrownBy(() -> reader.runs().create("r1", "writer", "maria", "Tidy", false, NOW))
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("cannot drive a run");
                assertThat(reader.runs().find("r1")).isEmpty();
            }
        }

        @Test
        void returnedRunIsThisProcessesToCarryOn() {
            inAProcessThatStops(runs -> claimed(runs, "r1"));
            StoredRun run = store.runs().reconcile(later).get(0);

            journal(store.runs(), "r1").beforeExecute("r1", "c1", "write");
            recordOutcome(store.runs(), fixture.approve(run.pausedState()), later);

            assertThat(find("r1").status()).isEqualTo(RunStatus.WAITING_FOR_APPROVAL);
        }

        @Test
        void inputDecisionComesBackWithItsValues() {
            Decision[] decision = new Decision[1];
            inAProcessThatStops(runs -> {
                runs.create("r1", "asker", "maria", "File the bug", false, NOW);
                RunOutcome.WaitingForInput pause = fixture.inputPause("r1");
                recordOutcome(runs, pause, NOW);
                decision[0] = input(pause.state(), "jonas", NOW);
                runs.claim(decision[0]);
            });

            assertThat(store.runs().reconcile(later)).singleElement()
                    .satisfies(run -> assertThat(((Decision.Input) run.lastDecision()).values())
                            .isEqualTo(((Decision.Input) decision[0]).values()));
        }

        @Test
        void callWithAnIntentAndNoOutcomeIsFlaggedAndTheRunIsNotReturned() {
            inAProcessThatStops(runs -> {
                claimed(runs, "r1");
                ExecutionJournal journal = journal(runs, "r1");
                journal.beforeExecute("r1", "c0", "read");
                journal.afterExecute("r1", "c0", ToolInvocationObservation.Outcome.OK);
                journal.beforeModelCall("r1");
                journal.beforeExecute("r1", "c1", "write");
            });

            assertThat(store.runs().reconcile(later)).isEmpty();

            StoredRun run = find("r1");
            assertThat(run.status()).isEqualTo(RunStatus.OUTCOME_UNKNOWN);
            assertThat(run.outcomeUnknown()).isTrue();
            assertThat(run.unknownOutcomeCalls()).containsExactly("c1");
        }

        @Test
        void flaggedRunStaysFlaggedAndIsNeverReturned() {
            flagged("r1");

            try (Store restarted = open()) {
                assertThat(restarted.runs().reconcile(later.plusSeconds(60))).isEmpty();
            }
            assertThat(store.runs().reconcile(later.plusSeconds(120))).isEmpty();
            assertThat(find("r1").unknownOutcomeCalls()).containsExactly("c1");
        }

        @Test
        void whenEveryCallFinishedAllAreFlaggedSinceTheirResultsWereLost() {
            inAProcessThatStops(runs -> {
                claimed(runs, "r1");
                ExecutionJournal journal = journal(runs, "r1");
                for (String call : List.of("c1", "c2")) {
                    journal.beforeExecute("r1", call, "write");
                    journal.afterExecute("r1", call, ToolInvocationObservation.Outcome.OK);
                }
                journal.beforeModelCall("r1");
            });

            assertThat(store.runs().reconcile(later)).isEmpty();

            assertThat(find("r1").unknownOutcomeCalls()).containsExactly("c1", "c2");
        }

        @Test
        void firstStretchThatNeverPausedFailsAsInterrupted() {
            inAProcessThatStops(runs -> runs.create("r1", "writer", "maria", "Tidy the notes", false, NOW));

            assertThat(store.runs().reconcile(later)).isEmpty();

            StoredRun run = find("r1");
            assertThat(run).extracting(StoredRun::status, StoredRun::failureReason)
                    .containsExactly(RunStatus.FAILED, "interrupted");
            assertThat(run.updatedAt()).isEqualTo(later);
        }

        @Test
        void runOfAProcessThatStillRunsIsLeftAlone() {
            try (Store other = open()) {
                claimed(other.runs(), "r1");

                assertThat(store.runs().reconcile(later)).isEmpty();

                assertThat(find("r1").status()).isEqualTo(RunStatus.RUNNING);
                assertThat(find("r1").outcomeUnknown()).isFalse();
                journal(other.runs(), "r1").beforeExecute("r1", "c1", "write");
            }
        }

        @Test
        void runOfAKilledProcessOnThisHostIsTakenOverAtOnceAndThatProcessIsFencedOff() throws Exception {
            Process finished = new ProcessBuilder("java", "-version").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            finished.waitFor();
            try (Store other = open()) {
                claimed(other.runs(), "r1");
                setOwnerSession("r1", "pid = " + finished.pid());

                assertThat(store.runs().reconcile(later)).extracting(StoredRun::runId).containsExactly("r1");

                assertThatThrownBy(() -> journal(other.runs(), "r1").beforeExecute("r1", "c1", "write"))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("taken over by another process");
            }
        }

        @Test
        void silentProcessOnAnotherHostIsTakenForStoppedOnceItsLeaseRanOut() throws SQLException {
            try (Store other = open()) {
                claimed(other.runs(), "r1");
                setOwnerSession("r1", "host = 'elsewhere', heartbeat_at = "
                        + Nanos.of(NOW.minus(StoreSession.LEASE).minusSeconds(1)));

                assertThat(store.runs().reconcile(NOW)).extracting(StoredRun::runId).containsExactly("r1");
            }
        }

        @Test
        void processOnAnotherHostThatStillBeatsKeepsItsRuns() throws SQLException {
            try (Store other = open()) {
                claimed(other.runs(), "r1");
                setOwnerSession("r1", "host = 'elsewhere', heartbeat_at = " + Nanos.of(NOW.minusSeconds(30)));

                assertThat(store.runs().reconcile(NOW)).isEmpty();
            }
        }

        @Test
        void ofTwoProcessesReconcilingAtOnceExactlyOneCarriesTheRunOn() throws Exception {
            inAProcessThatStops(runs -> claimed(runs, "r1"));
            try (Store second = open()) {
                CompletableFuture<List<StoredRun>> mine = CompletableFuture.supplyAsync(
                        () -> store.runs().reconcile(later));
                CompletableFuture<List<StoredRun>> theirs = CompletableFuture.supplyAsync(
                        () -> second.runs().reconcile(later));

                assertThat(mine.get().size() + theirs.get().size()).isEqualTo(1);
            }
        }

        @Test
        void retryPutsTheRunBackOnThePauseItWasDecidedFrom() {
            flagged("r1");
            PausedState decidedFrom = find("r1").pausedState();

            StoredRun settled = store.runs().settleUnknownOutcome("r1", true, "ana", later);

            assertThat(settled.status()).isEqualTo(RunStatus.WAITING_FOR_APPROVAL);
            assertThat(settled.pausedState()).isEqualTo(decidedFrom);
            assertThat(settled.outcomeUnknown()).isFalse();
            assertThat(settled.lastDecision()).isNull();
            assertThat(store.runs().claim(approval(decidedFrom, "ana", later))).isInstanceOf(ClaimResult.Claimed.class);
        }

        @Test
        void markingFailedEndsTheRunAsOutcomeUnknownSayingWhoDidIt() {
            flagged("r1");

            StoredRun settled = store.runs().settleUnknownOutcome("r1", false, "ana", later);

            assertThat(settled).extracting(StoredRun::status, StoredRun::failureReason, StoredRun::failureMessage)
                    .containsExactly(RunStatus.FAILED, "outcome_unknown",
                            "ana marked the run failed: the outcome of c1 is unknown after a restart");
            assertThat(settled.outcomeUnknown()).isFalse();
        }

        @Test
        void runThatIsNotFlaggedCannotBeSettled() {
            try (Store other = open()) {
                claimed(other.runs(), "r1");

                assertThatThrownBy(() -> store.runs().settleUnknownOutcome("r1", true, "ana", later))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessage("run r1 has no call whose outcome is unknown");
            }
        }

        @Test
        void unknownRunCannotBeSettled() {
            assertThatThrownBy(() -> store.runs().settleUnknownOutcome("nope", false, "ana", later))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("no run has the id \"nope\"");
        }
    }

    @Nested
    class Servers {
        private final McpServerRecord files = McpServerRecord.stdio("files", "/usr/bin/node",
                        List.of("server.js", "/srv/work"))
                .withTransport(new McpServerRecord.Stdio("/usr/bin/node", List.of("server.js", "/srv/work"),
                        Map.of("API_TOKEN", "env:FILES_TOKEN", "LOG_LEVEL", "debug")))
                .withEnabled(false).withApprovalBound(false).withGroup("workspace")
                .withDataClass(DataClass.SOURCE_CODE).withCallTimeout(Duration.ofSeconds(90))
                .withConnectTimeout(Duration.ofMillis(2500));
        private final McpServerRecord docs = McpServerRecord.streamableHttp("docs",
                        URI.create("https://mcp.example.org/mcp"))
                .withTransport(new McpServerRecord.StreamableHttp(URI.create("https://mcp.example.org/mcp"),
                        Map.of("Authorization", "env:DOCS_AUTH", "X-Team", "editors")));

        @Test
        void stdioRecordKeepsEveryField() {
            store.servers().add(files, ADMIN);

            assertThat(store.servers().find("files")).contains(files);
        }

        @Test
        void streamableHttpRecordKeepsItsUrlAndHeaders() {
            store.servers().add(docs, ADMIN);

            assertThat(store.servers().find("docs")).contains(docs);
        }

        @Test
        void recordsAreListedByName() {
            store.servers().add(files, ADMIN);
            store.servers().add(docs, ADMIN);

            assertThat(store.servers().list()).containsExactly(docs, files);
        }

        @Test
        void theListFollowsEveryChangeHereAndInAnotherProcess() {
            store.servers().add(files, ADMIN);
            try (Store other = open()) {
                assertThat(other.servers().list()).containsExactly(files);

                store.servers().add(docs, ADMIN);
                await().atMost(Duration.ofSeconds(1)).until(() -> other.servers().list().equals(List.of(docs, files)));
                store.settings().setServerApprovalBound("files", true, ADMIN);
                await().atMost(Duration.ofSeconds(1)).until(() -> other.servers().list().get(1).declaration()
                        == ApprovalDeclaration.APPROVAL_BOUND);

                other.servers().remove("docs", ADMIN);
                assertThat(other.servers().list()).extracting(McpServerRecord::name).containsExactly("files");
                await().atMost(Duration.ofSeconds(1)).until(() -> store.servers().list().size() == 1);
            }
        }

        @Test
        void addingATakenNameChangesNothing() {
            store.servers().add(docs, ADMIN);

            assertThat(store.servers().add(docs.withGroup("other"), ADMIN)).isEmpty();
            assertThat(store.servers().find("docs")).contains(docs);
        }

        @Test
        void updatingAnUnknownServerChangesNothing() {
            assertThat(store.servers().update(docs, ADMIN)).isEmpty();
            assertThat(store.servers().list()).isEmpty();
        }

        @Test
        void theDeclarationIsTheSettingTheApprovalRuleReads() {
            store.servers().add(files, ADMIN);

            assertThat(store.settings().current().serverApprovalBound("files")).isFalse();
            store.settings().setServerApprovalBound("files", true, ADMIN);
            assertThat(store.servers().find("files").orElseThrow().declaration())
                    .isEqualTo(ApprovalDeclaration.APPROVAL_BOUND);
        }

        @Test
        void aRecordWithoutADeclarationIsStoredAndReadAsNotDeclared() {
            store.servers().add(docs, ADMIN);

            assertThat(store.servers().find("docs").orElseThrow().declaration())
                    .isEqualTo(ApprovalDeclaration.NOT_DECLARED);
            assertThat(store.settings().current().serverDeclaration("docs")).isEqualTo(ApprovalDeclaration.NOT_DECLARED);
            assertThat(store.settings().changes(10)).extracting(SettingChange::settingKey).containsExactly("server:docs");
        }

        @Test
        void declaringAnUndeclaredServerApprovalBoundIsRecordedFromNotDeclared() {
            store.servers().add(docs, ADMIN);

            assertThat(store.settings().setServerApprovalBound("docs", true, ADMIN)).hasValueSatisfying(change ->
                    assertThat(change).extracting(SettingChange::oldValue, SettingChange::newValue)
                            .containsExactly(null, "true"));
            assertThat(store.servers().find("docs").orElseThrow().declaration())
                    .isEqualTo(ApprovalDeclaration.APPROVAL_BOUND);
        }

        @Test
        void aStoredDeclarationThatIsNeitherTrueNorFalseIsReportedAsDamaged() throws Exception {
            store.servers().add(docs, ADMIN);
            execute("INSERT INTO tool_settings (setting_key, setting_value) VALUES ('server_approval_bound:docs',"
                    + " 'maybe')");

            assertThatThrownBy(() -> store.servers().find("docs"))
                    .hasMessageContaining("the stored MCP server record \"docs\" is damaged")
                    .hasMessageContaining("neither true nor false");
        }

        @Test
        void theMigrationKeepsEveryExistingRecordsDeclaration() throws Exception {
            store.close();
            location = freshLocation();
            Flyway.configure().dataSource(rawDataSource(location)).locations(Migrations.LOCATION)
                    .placeholders(dialect().migrationPlaceholders()).target("11").loggers("slf4j").load().migrate();
            for (String name : List.of("bound", "free", "silent")) {
                execute("INSERT INTO mcp_servers (name, transport, command, arguments, environment, enabled,"
                        + " tool_group, data_class, call_timeout_nanos, connect_timeout_nanos) VALUES ('" + name
                        + "', 'stdio', 'node', '[]', '{}', TRUE, '" + name + "', 'secretAdjacent', 60000000000,"
                        + " 30000000000)");
            }
            // before the migration no row meant approval-bound: "silent" was approval-bound by saying nothing
            execute("INSERT INTO tool_settings (setting_key, setting_value) VALUES"
                    + " ('server_approval_bound:bound', 'true'), ('server_approval_bound:free', 'false'),"
                    + " ('server_approval_bound:gone', 'false')");

            store = open();

            assertThat(store.servers().list()).extracting(McpServerRecord::name, McpServerRecord::declaration)
                    .containsExactly(tuple("bound", ApprovalDeclaration.APPROVAL_BOUND),
                            tuple("free", ApprovalDeclaration.NOT_APPROVAL_BOUND),
                            tuple("silent", ApprovalDeclaration.APPROVAL_BOUND));
            assertThat(store.settings().current().serverDeclaration("gone"))
                    .isEqualTo(ApprovalDeclaration.NOT_APPROVAL_BOUND);
            store.servers().add(docs, ADMIN);
            assertThat(store.servers().find("docs").orElseThrow().declaration())
                    .isEqualTo(ApprovalDeclaration.NOT_DECLARED);
        }

        @Test
        void recordAndDeclarationChangesAreRecordedWithWhoWhenOldAndNew() {
            store.servers().add(files, ADMIN);
            List<SettingChange> changes = store.servers().update(files.withGroup("shared"), ADMIN).orElseThrow();

            assertThat(changes).singleElement().satisfies(change -> {
                assertThat(change).extracting(SettingChange::time, SettingChange::actor, SettingChange::settingKey)
                        .containsExactly(NOW, "ana", "server:files");
                assertThat(change.oldValue()).contains("\"group\":\"workspace\"").contains("env:FILES_TOKEN");
                assertThat(change.newValue()).contains("\"group\":\"shared\"");
            });
            assertThat(store.settings().changes(10)).extracting(SettingChange::settingKey, SettingChange::oldValue,
                            SettingChange::newValue)
                    .contains(tuple("server_approval_bound:files", null, "false"));
        }

        @Test
        void savingTheSameRecordAgainRecordsNothing() {
            store.servers().add(files, ADMIN);

            assertThat(store.servers().update(files, ADMIN)).contains(List.of());
        }

        @Test
        void removingARecordRemovesItsDeclaration() {
            store.servers().add(files, ADMIN);

            List<SettingChange> changes = store.servers().remove("files", ADMIN).orElseThrow();

            assertThat(changes).extracting(SettingChange::settingKey, SettingChange::oldValue, SettingChange::newValue)
                    .containsExactly(tuple("server:files", changes.get(0).oldValue(), null),
                            tuple("server_approval_bound:files", "false", null));
            assertThat(store.servers().find("files")).isEmpty();
            assertThat(store.settings().current().serverDeclaration("files"))
                    .isEqualTo(ApprovalDeclaration.NOT_DECLARED);
            assertThat(store.servers().remove("files", ADMIN)).isEmpty();
        }

        @Test
        void aToolsOwnDeclarationIsRecordedAndReadWithItsAuthorBesideItsServers() {
            store.servers().add(files, ADMIN);

            SettingChange change = store.settings().setToolDeclaration("files.write_file",
                    ApprovalDeclaration.APPROVAL_BOUND, Actor.of("maria", Role.ADMIN)).orElseThrow();

            assertThat(change).extracting(SettingChange::actor, SettingChange::settingKey, SettingChange::oldValue,
                    SettingChange::newValue).containsExactly("maria", "tool_approval_bound:files.write_file", null, "true");
            assertThat(store.settings().current().toolDeclaration("files.write_file"))
                    .isEqualTo(ApprovalDeclaration.APPROVAL_BOUND);
            assertThat(store.servers().declarationOf("files.write_file")).isEqualTo(new RemoteDeclaration(
                    ApprovalDeclaration.APPROVAL_BOUND, RemoteDeclaration.Source.TOOL, "maria"));
            assertThat(store.servers().declarationOf("files.read_file")).isEqualTo(new RemoteDeclaration(
                    ApprovalDeclaration.NOT_APPROVAL_BOUND, RemoteDeclaration.Source.SERVER, "ana"));
            assertThat(store.servers().toolDeclarations("files")).containsOnlyKeys("files.write_file");
            assertThat(store.settings().setToolDeclaration("files.write_file", ApprovalDeclaration.APPROVAL_BOUND,
                    ADMIN)).as("already so").isEmpty();
        }

        @Test
        void takingAToolsOwnDeclarationAwayIsRecordedAndItFollowsItsServerAgain() {
            store.servers().add(files, ADMIN);
            store.settings().setToolDeclaration("files.write_file", ApprovalDeclaration.APPROVAL_BOUND, ADMIN);

            assertThat(store.settings().setToolDeclaration("files.write_file", ApprovalDeclaration.NOT_DECLARED, ADMIN))
                    .hasValueSatisfying(change -> assertThat(change).extracting(SettingChange::oldValue,
                            SettingChange::newValue).containsExactly("true", null));
            assertThat(store.servers().declarationOf("files.write_file").source())
                    .isEqualTo(RemoteDeclaration.Source.SERVER);
            assertThat(store.settings().setToolDeclaration("files.write_file", ApprovalDeclaration.NOT_DECLARED, ADMIN))
                    .as("nothing to take away").isEmpty();
        }

        @Test
        void removingARecordRemovesItsToolsOwnDeclarationsAndNoOtherServers() {
            store.servers().add(files, ADMIN);
            store.servers().add(docs, ADMIN);
            store.settings().setToolDeclaration("files.write_file", ApprovalDeclaration.APPROVAL_BOUND, ADMIN);
            store.settings().setToolDeclaration("files.move_file", ApprovalDeclaration.APPROVAL_BOUND, ADMIN);
            store.settings().setToolDeclaration("docs.edit", ApprovalDeclaration.APPROVAL_BOUND, ADMIN);

            List<SettingChange> changes = store.servers().remove("files", ADMIN).orElseThrow();

            assertThat(changes).extracting(SettingChange::settingKey).containsExactly("server:files",
                    "server_approval_bound:files", "tool_approval_bound:files.move_file",
                    "tool_approval_bound:files.write_file");
            assertThat(store.settings().current().toolApprovalBound()).containsOnlyKeys("docs.edit");
        }

        @Test
        void anotherStoreOnTheSameDatabaseSeesAToolsDeclarationWithinASecond() {
            store.servers().add(files, ADMIN);
            try (Store other = open()) {
                assertThat(other.servers().declarationOf("files.write_file").approvalBound()).isFalse();

                store.settings().setToolDeclaration("files.write_file", ApprovalDeclaration.APPROVAL_BOUND, ADMIN);

                await().atMost(Duration.ofSeconds(1)).untilAsserted(() ->
                        assertThat(other.servers().declarationOf("files.write_file")).isEqualTo(new RemoteDeclaration(
                                ApprovalDeclaration.APPROVAL_BOUND, RemoteDeclaration.Source.TOOL, "ana")));
            }
        }
    }
}
