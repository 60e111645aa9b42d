package io.countersign.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.countersign.engine.event.EventType;
import io.countersign.engine.port.RunClaims.ClaimResult;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.stats.DecisionLatencyRow;
import io.countersign.engine.stats.DecisionStatsQuery;
import io.countersign.engine.stats.LatencyBuckets;
import io.countersign.engine.stats.StatsDimension;
import io.countersign.engine.stats.WaitingAge;
import io.countersign.engine.stats.WaitingNow;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Map.Entry;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The counts of how long decisions take, kept by the claim: a known set of decisions gives exact counts, sums and
 * maxima, and percentiles within the buckets' error; deadline fallbacks count as expired, escalations as escalated;
 * the waiting cards are counted by age. Run on SQLite and PostgreSQL by the subclasses.
 */
abstract class DecisionStatsSuite extends StoreFixture {
    private static final LocalDate TODAY = LocalDate.ofInstant(NOW, ZoneOffset.UTC);
    private final TestRuns fixture = new TestRuns();
    private int runs;

    /** A writer run of the agent, waiting on its write since {@code at}. */
    private PausedState waitingWrite(String agent, Instant at) {
        String runId = "w" + ++runs;
        store.runs().create(runId, agent, "maria", "Tidy the notes", false, at);
        RunOutcome.WaitingForApproval pause = fixture.firstPause(runId);
        StoreSuite.recordOutcome(store.runs(), pause, at);
        return pause.state();
    }

    /** An asker run of the agent, waiting on its form since {@code at}. */
    private PausedState waitingForm(String agent, Instant at) {
        String runId = "f" + ++runs;
        store.runs().create(runId, agent, "maria", "File the bug", false, at);
        RunOutcome.WaitingForInput pause = fixture.inputPause(runId);
        StoreSuite.recordOutcome(store.runs(), pause, at);
        return pause.state();
    }

    private void approve(PausedState state, String by, Instant at) {
        assertThat(store.runs().claim(TestRuns.approval(state, by, at))).isInstanceOf(ClaimResult.Claimed.class);
    }

    /** Gives the waiting run a deadline passed at {@code due}, with the fallback, as its agent would have. */
    private void overdue(String runId, Instant due, String onDeadline) throws Exception {
        try (Connection connection = rawDataSource(location).getConnection();
             PreparedStatement update = connection.prepareStatement("UPDATE runs SET deadline = ?,"
                     + " deadline_span = ?, on_deadline = ?, escalation_role = 'ADMIN' WHERE id = ?")) {
            update.setLong(1, Nanos.of(due));
            update.setLong(2, Duration.ofMinutes(30).toNanos());
            update.setString(3, onDeadline);
            update.setString(4, runId);
            assertThat(update.executeUpdate()).isEqualTo(1);
        }
    }

    private Map<String, DecisionLatencyRow> by(StatsDimension dimension, LocalDate first, LocalDate last) {
        return store.decisionStats().latencies(new DecisionStatsQuery(first, last, dimension)).stream()
                .collect(Collectors.toMap(DecisionLatencyRow::name, row -> row));
    }

    /** The latency below which the fraction of the sorted latencies fell: the nearest rank. */
    private static long nearestRank(List<Long> sorted, double quantile) {
        return sorted.get((int) Math.ceil(quantile * sorted.size()) - 1);
    }

    private static void assertFigures(DecisionLatencyRow row, List<Long> latencies) {
        List<Long> sorted = latencies.stream().sorted().toList();
        long sum = sorted.stream().mapToLong(Long::longValue).sum();
        assertThat(row.latencies().decisions()).isEqualTo(sorted.size());
        assertThat(row.latencies().totalMillis()).isEqualTo(sum);
        assertThat(row.latencies().max()).isEqualTo(Duration.ofMillis(sorted.get(sorted.size() - 1)));
        for (double quantile : new double[] {0.5, 0.9}) {
            long exact = nearestRank(sorted, quantile);
            assertThat((double) row.latencies().percentile(quantile).toMillis())
                    .as("p%d of %s", Math.round(quantile * 100), row.name())
                    .isCloseTo(exact, within(exact * LatencyBuckets.RELATIVE_ERROR + 0.5));
        }
    }

    @Test
    void aKnownSetOfDecisionsGivesExactCountsAndMaximaAndPercentilesWithinTheBucketError() {
        Map<String, List<Long>> byAgent = new HashMap<>();
        Map<String, List<Long>> byTool = new HashMap<>();
        Map<String, List<Long>> byOperator = new HashMap<>();
        List<Long> all = new ArrayList<>();
        Instant waiting = NOW.minus(Duration.ofHours(11));
        for (int i = 0; i < 150; i++) {
            // from a few milliseconds to some ten hours, unevenly
            long millis = i % 7 == 0 ? i : (long) i * i * 1_693 % 36_000_000L;
            String agent = i % 3 == 0 ? "triage" : "writer";
            String operator = i % 4 == 0 ? "maria" : "jonas";
            boolean form = i % 5 == 0;
            PausedState state = form ? waitingForm(agent, waiting) : waitingWrite(agent, waiting);
            Instant decided = waiting.plusMillis(millis);
            ClaimResult claim = store.runs().claim(form ? TestRuns.input(state, operator, decided)
                    : TestRuns.approval(state, operator, decided));
            assertThat(claim).isInstanceOf(ClaimResult.Claimed.class);
            byAgent.computeIfAbsent(agent, none -> new ArrayList<>()).add(millis);
            byTool.computeIfAbsent(form ? "form" : "write", none -> new ArrayList<>()).add(millis);
            byOperator.computeIfAbsent(operator, none -> new ArrayList<>()).add(millis);
            all.add(millis);
        }

        Map<String, DecisionLatencyRow> agents = by(StatsDimension.AGENT, null, null);
        Map<String, DecisionLatencyRow> tools = by(StatsDimension.TOOL, TODAY.minusDays(1), TODAY);
        Map<String, DecisionLatencyRow> operators = by(StatsDimension.OPERATOR, TODAY, TODAY);
        assertThat(agents).containsOnlyKeys("triage", "writer");
        assertThat(tools).containsOnlyKeys("form", "write");
        assertThat(operators).containsOnlyKeys("maria", "jonas");
        for (Entry<String, List<Long>> each : byAgent.entrySet()) {
            assertFigures(agents.get(each.getKey()), each.getValue());
        }
        for (Entry<String, List<Long>> each : byTool.entrySet()) {
            assertFigures(tools.get(each.getKey()), each.getValue());
        }
        for (Entry<String, List<Long>> each : byOperator.entrySet()) {
            assertFigures(operators.get(each.getKey()), each.getValue());
        }
        DecisionLatencyRow total = store.decisionStats().total(DecisionStatsQuery.all(StatsDimension.TOOL));
        assertFigures(total, all);
        assertThat(total.expired()).isZero();
        assertThat(store.decisionStats().latencies(new DecisionStatsQuery(TODAY.plusDays(1), null,
                StatsDimension.AGENT))).isEmpty();
    }

    @Test
    void decisionsCountOnTheUtcDayTheyWereTakenAndRangesAreWholeDays() {
        Instant yesterday = NOW.minus(Duration.ofDays(1));
        approve(waitingWrite("writer", yesterday.minusSeconds(40)), "jonas", yesterday);
        approve(waitingWrite("writer", NOW.minusSeconds(5)), "jonas", NOW);
        approve(waitingWrite("writer", NOW.minusSeconds(7)), "maria", NOW);

        assertThat(by(StatsDimension.AGENT, TODAY, TODAY).get("writer").latencies().decisions()).isEqualTo(2);
        assertThat(by(StatsDimension.AGENT, null, TODAY.minusDays(1)).get("writer").latencies().max())
                .isEqualTo(Duration.ofSeconds(40));
        assertThat(by(StatsDimension.OPERATOR, TODAY.minusDays(1), TODAY).get("jonas").latencies().decisions())
                .isEqualTo(2);
        assertThat(by(StatsDimension.AGENT, TODAY.minusDays(5), TODAY.minusDays(2))).isEmpty();
    }

    @Test
    void aDeadlinesFallbackCountsTheCardExpiredAndAnEscalationCountsItEscalated() throws Exception {
        PausedState expiring = waitingWrite("writer", NOW.minus(Duration.ofHours(1)));
        overdue(expiring.runId(), NOW.minusSeconds(1), "deny");
        approve(expiring, "deadline", NOW);
        PausedState escalating = waitingWrite("writer", NOW.minus(Duration.ofHours(2)));
        overdue(escalating.runId(), NOW.minusSeconds(1), "escalate");
        assertThat(store.runs().escalate(escalating.runId(), escalating.digest(), NOW,
                TestEvents.event("e1", NOW).type(EventType.APPROVAL_ESCALATED).reason("escalate").tool("write")
                        .run(escalating.runId()).agent("writer").actor("deadline").build())).isTrue();
        // a second escalation of the same card changes nothing
        assertThat(store.runs().escalate(escalating.runId(), escalating.digest(), NOW,
                TestEvents.event("e2", NOW).type(EventType.APPROVAL_ESCALATED).reason("escalate").tool("write")
                        .run(escalating.runId()).agent("writer").actor("deadline").build())).isFalse();
        approve(escalating, "maria", NOW.plusSeconds(30));

        DecisionLatencyRow writer = by(StatsDimension.AGENT, TODAY, TODAY).get("writer");
        assertThat(writer.expired()).isEqualTo(1);
        assertThat(writer.escalated()).isEqualTo(1);
        assertThat(writer.latencies().decisions()).isEqualTo(1);
        assertThat(writer.latencies().max()).isEqualTo(Duration.ofHours(2).plusSeconds(30));
        DecisionLatencyRow write = by(StatsDimension.TOOL, TODAY, TODAY).get("write");
        assertThat(write.expired()).isEqualTo(1);
        assertThat(write.escalated()).isEqualTo(1);
        Map<String, DecisionLatencyRow> operators = by(StatsDimension.OPERATOR, TODAY, TODAY);
        assertThat(operators).containsOnlyKeys("deadline", "maria");
        assertThat(operators.get("deadline").expired()).isEqualTo(1);
        assertThat(operators.get("deadline").latencies().decisions()).isZero();
        DecisionLatencyRow total = store.decisionStats().total(DecisionStatsQuery.all(StatsDimension.OPERATOR));
        assertThat(total.expired()).isEqualTo(1);
        assertThat(total.escalated()).isEqualTo(1);
        assertThat(total.latencies().decisions()).isEqualTo(1);
    }

    @Test
    void theCardsWaitingNowAreCountedByAge() {
        waitingWrite("writer", NOW.minusSeconds(20));
        waitingWrite("writer", NOW.minusSeconds(59));
        waitingForm("triage", NOW.minus(Duration.ofMinutes(5)));
        waitingWrite("writer", NOW.minus(Duration.ofHours(3)));
        waitingWrite("writer", NOW.minus(Duration.ofDays(2)));
        approve(waitingWrite("writer", NOW.minus(Duration.ofDays(9))), "maria", NOW);

        WaitingNow waiting = store.decisionStats().waitingNow(NOW);
        assertThat(waiting.byAge()).containsExactlyInAnyOrderEntriesOf(Map.of(WaitingAge.UNDER_MINUTE, 2L,
                WaitingAge.UNDER_10_MINUTES, 1L, WaitingAge.UNDER_HOUR, 0L, WaitingAge.UNDER_8_HOURS, 1L,
                WaitingAge.UNDER_DAY, 0L, WaitingAge.DAY_OR_MORE, 1L));
        assertThat(waiting.total()).isEqualTo(5);
        assertThat(waiting.oldestSince()).isEqualTo(NOW.minus(Duration.ofDays(2)));
        assertThat(store.decisionStats().waitingNow(NOW.minus(Duration.ofDays(30))).byAge()
                .get(WaitingAge.UNDER_MINUTE)).isEqualTo(5);
    }
}
