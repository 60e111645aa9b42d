package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.event.EventCount;
import io.countersign.engine.event.EventCursor;
import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.EventPage;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.event.PageRequest;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventServiceTest {
    @TempDir
    Path folder;
    DemoStore demo;
    EventService events;

    @BeforeEach
    void open() {
        demo = new DemoStore(folder);
        events = demo.runtime.events();
    }

    @AfterEach
    void close() {
        demo.close();
    }

    private static GovernanceEvent event(String id, Instant time) {
        return new GovernanceEvent(id, time, EventType.TOOL_DENIED, "disabled", "bulk_tool", null, null, null, null,
                null, null);
    }

    @Test
    void supervisorFindsTheDemosRefusedDelete() {
        EventPage page = events.page(demo.supervisor, EventFilter.all().ofTypes(Set.of(EventType.INVOCATION_DENIED)),
                PageRequest.first(10));

        assertThat(page.events()).singleElement().satisfies(event -> {
            assertThat(event.toolName()).isEqualTo("fs_delete");
            assertThat(event.ruleId()).isEqualTo("workspace.boundary");
            assertThat(event.runId()).isEqualTo(demo.runOf("release-notes-bot"));
        });
    }

    @Test
    void aDecisionsEventLeadsToTheReasonsTheOperatorGaveForWhatTheyDeniedForSupervisorsOnly() {
        demo.operatorDeniesTheReleaseNotes("Wrong file");
        GovernanceEvent decided = events.page(demo.supervisor, EventFilter.all().ofTypes(
                Set.of(EventType.APPROVAL_DECIDED)), PageRequest.first(10)).events().get(0);

        assertThat(events.denials(demo.supervisor, decided))
                .containsExactly(Decision.CallVerdict.deny(0, "Wrong file"));
        assertThat(events.denials(demo.supervisor, event("other", Instant.now()))).isEmpty();
        assertThatThrownBy(() -> events.denials(demo.operator, decided)).isInstanceOf(NotPermittedException.class);
    }

    @Test
    void countsByRuleFollowTheFilter() {
        assertThat(events.counts(demo.supervisor, EventFilter.all(), EventService.EventDimension.RULE))
                .containsExactly(new EventCount("workspace.boundary", 1));
        assertThat(events.counts(demo.supervisor, EventFilter.all().withToolName("web_fetch"),
                EventService.EventDimension.RULE)).isEmpty();
    }

    @Test
    void csvExportStreamsEveryMatchingEventAcrossPages() throws Exception {
        Instant base = Instant.parse("2026-01-01T00:00:00Z");
        demo.runtime.store().events().appendAll(IntStream.range(0, 2500).mapToObj(i ->
                event("bulk-" + i, base.plusSeconds(i))).toList());
        StringWriter out = new StringWriter();

        long written = events.exportCsv(demo.supervisor, EventFilter.all().withToolName("bulk_tool"), out);

        List<String> lines = out.toString().lines().toList();
        assertThat(written).isEqualTo(2500);
        assertThat(lines).hasSize(2501);
        assertThat(lines.get(0)).isEqualTo(EventCsv.HEADER);
        assertThat(lines.get(1)).startsWith("bulk-2499,2026-01-01T00:41:39Z,tool_denied,");
        assertThat(lines).doesNotHaveDuplicates();
    }

    @Test
    void csvQuotesWhatWouldBreakAColumn() {
        assertThat(EventCsv.line(List.of("a,b", "say \"hi\"", "two\nlines"))).isEqualTo(
                "\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\"");
    }

    @Test
    void csvDefusesFieldsThatASpreadsheetWouldRunAsFormulas() {
        assertThat(EventCsv.line(List.of("=HYPERLINK(\"x\")", "+1", "-1", "@SUM(A1)", "plain")))
                .isEqualTo("\"'=HYPERLINK(\"\"x\"\")\",'+1,'-1,'@SUM(A1),plain");
    }

    @Test
    void cursorTokenComesBackAsTheSameCursor() {
        EventCursor cursor = new EventCursor(Instant.parse("2026-03-01T12:00:00.123456789Z"), "event:42");

        assertThat(EventCursors.decode(EventCursors.encode(cursor))).isEqualTo(cursor);
    }

    @Test
    void tokenThatIsNotACursorIsRefusedSayingWhatToPass() {
        assertThatThrownBy(() -> EventCursors.decode("not-a-cursor"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("\"not-a-cursor\" is not an event cursor; pass the \"next\" value that the previous page"
                        + " printed");
    }

    @Test
    void adminPurgeDeletesOnlyOldEvents() {
        demo.runtime.store().events().record(event("ancient", Instant.parse("2001-01-01T00:00:00Z")));

        assertThat(events.purgeOlderThan(demo.admin, Duration.ofDays(3650))).isEqualTo(1);
        assertThat(events.page(demo.admin, EventFilter.all(), PageRequest.first(100)).events())
                .extracting(GovernanceEvent::id).doesNotContain("ancient").isNotEmpty();
    }
}
