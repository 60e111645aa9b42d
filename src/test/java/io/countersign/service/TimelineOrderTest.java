package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Events go among the transcript where the loop recorded them. */
class TimelineOrderTest {
    private static TimelineOrder.Step step(RunTimeline.Kind kind, String title, int round) {
        return new TimelineOrder.Step(new RunTimeline.Entry(kind, null, title, ""), round);
    }

    private static GovernanceEvent event(EventType type, String toolName, int second) {
        return new GovernanceEvent("event-" + second, Instant.ofEpochSecond(second), type, null, toolName, null,
                "run", "agent", "maria", "model", null);
    }

    @Test
    void anApprovalGoesBeforeTheResultsOfTheRoundThatPausedNotOfAnEarlierRound() {
        List<TimelineOrder.Step> steps = List.of(
                step(RunTimeline.Kind.USER, "maria", -1),
                step(RunTimeline.Kind.TOOL_CALL, "fs_read", 1),
                step(RunTimeline.Kind.TOOL_RESULT, "fs_read", 1),
                step(RunTimeline.Kind.TOOL_CALL, "fs_read", 3),
                step(RunTimeline.Kind.TOOL_CALL, "fs_write", 3),
                step(RunTimeline.Kind.TOOL_RESULT, "fs_read", 3),
                step(RunTimeline.Kind.TOOL_RESULT, "fs_write", 3),
                step(RunTimeline.Kind.ASSISTANT, "Model", 6));
        List<GovernanceEvent> events = List.of(event(EventType.INVOCATION_DENIED, "fs_read", 1),
                event(EventType.APPROVAL_DECIDED, null, 2));

        List<RunTimeline.Entry> merged = TimelineOrder.merge(steps, events,
                e -> new RunTimeline.Entry(RunTimeline.Kind.EVENT, e.time(), e.type().code(), ""),
                "fs_write"::equals);

        assertThat(merged).extracting(RunTimeline.Entry::title).containsExactly("maria", "fs_read",
                "invocation_denied", "fs_read", "fs_read", "fs_write", "approval_decided", "fs_read", "fs_write",
                "Model");
    }
}
