package io.countersign.store;

import static io.countersign.store.TestEvents.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.countersign.engine.Actor;
import io.countersign.engine.EventType;
import io.countersign.engine.GovernanceEvent;
import io.countersign.engine.ModelConfiguration;
import io.countersign.engine.Role;
import io.countersign.engine.RunCounters;
import io.countersign.engine.RunOutcome;
import io.countersign.engine.RunStatus;
import io.countersign.engine.StoredRun;
import io.countersign.engine.ToolInvocationHistory;
import io.countersign.engine.ToolInvocationObservation;
import io.countersign.engine.ToolSettings;
import io.countersign.engine.TrustZone;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The behaviour of the store, the same on every database: each subclass supplies a fresh, empty database per
 * test.
 */
abstract class StoreSuite {
    static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    static final Actor ADMIN = Actor.of("ana", Role.ADMIN);

    StoreLocation location;
    Store store;

    /** A new, empty database, used by one test only. */
    abstract StoreLocation freshLocation() throws Exception;

    /** A plain data source on the location, bypassing the store, to look at or tamper with the schema. */
    abstract DataSource rawDataSource(StoreLocation location);

    abstract Dialect dialect();

    @BeforeEach
    void openStore() throws Exception {
        location = freshLocation();
        store = open();
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    Store open() {
        return Store.open(location, StoreOptions.defaults().withClock(Clock.fixed(NOW, ZoneOffset.UTC)));
    }

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

    void execute(String sql) throws SQLException {
        try (Connection connection = rawDataSource(location).getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
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
                assertThat(applied).containsExactly("1", "2", "3");
            }
        }

        @Test
        void eventsHaveExactlyTheFieldsOfAGovernanceEventAndNoPlaceForPayloads() throws SQLException {
            Set<String> columns = columnsOf("governance_events");

            assertThat(columns).containsExactlyInAnyOrder("id", "event_time", "event_type", "reason_code",
                    "tool_name", "rule_id", "run_id", "agent_configuration", "actor", "model", "detail");
            assertThat(columns).hasSameSizeAs(GovernanceEvent.class.getRecordComponents());
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
                    .hasMessageContaining("knows up to version 3")
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

            long deleted = store.events().purgeOlderThan(Duration.ofDays(30));

            assertThat(deleted).isEqualTo(2);
            assertThat(store.events().page(EventFilter.all(), PageRequest.first(10)).events())
                    .extracting(GovernanceEvent::id).containsExactly("recent");
        }

        @Test
        void purgeBeyondOneSliceDeletesEveryOldEvent() {
            store.events().appendAll(IntStream.range(0, 10_050)
                    .mapToObj(i -> event("old" + i, NOW.minus(Duration.ofDays(60)).plusSeconds(i)).build()).toList());

            assertThat(store.events().purgeOlderThan(Duration.ofDays(30))).isEqualTo(10_050);
        }

        @Test
        void negativeRetentionAgeIsRejected() {
            assertThatThrownBy(() -> store.events().purgeOlderThan(Duration.ofDays(-1)))
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
        void firstUserOfANewStoreGetsEveryRole() {
            Actor first = store.users().ensureUser("ana");

            assertThat(first.roles()).containsExactlyInAnyOrder(Role.ADMIN, Role.OPERATOR, Role.SUPERVISOR);
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

            StoredRun claimed = store.runs().claimNext("w1", LEASE, NOW).orElseThrow();

            assertThat(claimed.runId()).isEqualTo("r1");
            assertThat(claimed.status()).isEqualTo(RunStatus.RUNNING);
            assertThat(claimed.pausedState()).isNull();
            assertThat(store.runs().claimNext("w2", LEASE, NOW)).isEmpty();
        }

        @Test
        void oldestQueuedRunComesFirst() {
            enqueue("later", NOW.plusSeconds(1));
            enqueue("earlier", NOW);

            assertThat(store.runs().claimNext("w1", LEASE, NOW).orElseThrow().runId()).isEqualTo("earlier");
        }

        @Test
        void concurrentClaimsNeverShareARun() throws Exception {
            IntStream.range(0, 40).forEach(i -> enqueue("r" + i, NOW.plusNanos(i)));
            List<String> claimed = new CopyOnWriteArrayList<>();
            List<Thread> workers = IntStream.range(0, 4).mapToObj(w -> new Thread(() -> {
                Optional<StoredRun> next;
                while ((next = store.runs().claimNext("w" + w, LEASE, NOW)).isPresent()) {
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
            assertThat(store.runs().claimNext("w2", LEASE.plusSeconds(60), LEASE).orElseThrow().runId())
                    .isEqualTo("r1");
        }

        @Test
        void lapsedRunWithAStartedCallIsFlaggedAndLeftForAPerson() {
            enqueue("r1", NOW);
            store.runs().claimNext("w1", LEASE, NOW);
            store.runs().journal().beforeExecute("r1", "call-1", "fs_write");

            assertThat(store.runs().recoverAbandoned(LEASE.plusSeconds(1))).singleElement().satisfies(run -> {
                assertThat(run.status()).isEqualTo(RunStatus.RUNNING);
                assertThat(run.unknownOutcomeCalls()).containsExactly("call-1");
            });
            assertThat(store.runs().recoverAbandoned(LEASE.plusSeconds(2))).isEmpty();
            assertThat(store.runs().claimNext("w2", LEASE, NOW)).isEmpty();
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

            store.runs().recordOutcome(completed("r1", "fs_read"), NOW);

            assertThat(store.runs().renewLease("r1", "w1", LEASE)).isFalse();
            assertThat(store.runs().find("r1").orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
        }

        @Test
        void recentCallsComeNewestRunFirstAndEachRunsLastCallFirst() {
            store.runs().create("old", "triage", "maria", "p", false, NOW);
            store.runs().recordOutcome(completed("old", "fs_list", "fs_read"), NOW);
            store.runs().create("new", "triage", "maria", "p", false, NOW);
            store.runs().recordOutcome(completed("new", "web_fetch", "fs_write"), NOW.plusSeconds(1));

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
        void closedSubscriptionHearsNothingMore() {
            List<ChangeKind> heard = new CopyOnWriteArrayList<>();
            List<ChangeKind> control = new CopyOnWriteArrayList<>();
            store.changes().subscribe(heard::add).close();
            store.changes().subscribe(control::add);

            store.settings().setGroupEnabled("shell", false, ADMIN);

            await().atMost(Duration.ofMillis(200)).until(() -> !control.isEmpty());
            assertThat(heard).isEmpty();
        }
    }
}
