package io.countersign.service;

import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Puts a run's governance events among its transcript, in the order they happened. Transcript messages carry no
 * clock, so each event goes where the loop records it: a refusal between its call and the call's result, a
 * decision (approval or typed input) after the calls of the round that paused for it, before that round's
 * results. Events come in time order and never go before an earlier one; one that names no call in reach stays
 * where the one before it went.
 */
final class TimelineOrder {
    /** A transcript entry and the round it belongs to: the index of its assistant message, -1 before the first. */
    record Step(RunTimeline.Entry entry, int round) {
    }

    private final List<Step> steps;
    private final Predicate<String> approvalBound;
    private final List<List<RunTimeline.Entry>> before = new ArrayList<>();
    private final Set<Integer> matchedCalls = new HashSet<>();
    private int cursor;

    /**
     * @param steps         the transcript's entries in order, each with its round
     * @param approvalBound whether a tool's calls wait for an approval, to find the round an approval resumed
     */
    private TimelineOrder(List<Step> steps, Predicate<String> approvalBound) {
        this.steps = steps;
        this.approvalBound = approvalBound;
        for (int slot = 0; slot <= steps.size(); slot++) {
            before.add(new ArrayList<>());
        }
    }

    /** The transcript's entries with the events (in time order, each shown as {@code entry} makes it) among them. */
    static List<RunTimeline.Entry> merge(List<Step> steps, List<GovernanceEvent> events,
                                         Function<GovernanceEvent, RunTimeline.Entry> entry,
                                         Predicate<String> approvalBound) {
        TimelineOrder order = new TimelineOrder(steps, approvalBound);
        for (GovernanceEvent event : events) {
            order.place(event, entry.apply(event));
        }
        List<RunTimeline.Entry> merged = new ArrayList<>();
        for (int slot = 0; slot <= steps.size(); slot++) {
            merged.addAll(order.before.get(slot));
            if (slot < steps.size()) {
                merged.add(steps.get(slot).entry());
            }
        }
        return merged;
    }

    private void place(GovernanceEvent event, RunTimeline.Entry entry) {
        int slot = switch (event.type()) {
            // A deadline's events come while the card waits, before the round resumes, as a decision does.
            case APPROVAL_DECIDED, APPROVAL_EXPIRED, APPROVAL_ESCALATED, DEADLINE_EXTENDED, GRANT_MADE, GRANT_REVOKED,
                    APPROVAL_COUNTED, CALL_WITHDRAWN ->
                    firstResultOfRound(this::hasApprovalBoundCall);
            case INPUT_SUBMITTED -> firstResultOfRound(round -> hasCall(round, event.toolName()));
            case TOOL_DENIED, INVOCATION_DENIED, WRITE_UNAPPROVED, INPUT_ELICITED, APPROVED_BY_GRANT ->
                    afterCall(event.toolName());
            // a host's use of a server's resource or prompt belongs to no call: where the run had got to
            case RESOURCE_READ, PROMPT_USED, RESOURCE_SUBSCRIBED, RESOURCE_UNSUBSCRIBED, COMPLETION_ASKED -> cursor;
        };
        cursor = Math.max(cursor, slot);
        before.get(cursor).add(entry);
    }

    /**
     * The first result at or after the cursor of a round that matches, else of any round: a decision resumes a
     * paused round, whose results all come after it.
     */
    private int firstResultOfRound(Predicate<Integer> round) {
        int any = -1;
        for (int i = cursor; i < steps.size(); i++) {
            if (steps.get(i).entry().kind() == RunTimeline.Kind.TOOL_RESULT) {
                if (round.test(steps.get(i).round())) {
                    return i;
                }
                any = any < 0 ? i : any;
            }
        }
        return any < 0 ? cursor : any;
    }

    /** Just after the next call of the tool not yet matched, from the round the cursor is in. */
    private int afterCall(String toolName) {
        if (toolName == null) {
            return cursor;
        }
        int from = cursor;
        int round = cursor > 0 ? steps.get(cursor - 1).round() : -1;
        while (from > 0 && steps.get(from - 1).round() == round) {
            from--;
        }
        for (int i = from; i < steps.size(); i++) {
            RunTimeline.Entry step = steps.get(i).entry();
            if (step.kind() == RunTimeline.Kind.TOOL_CALL && step.title().equals(toolName)
                    && matchedCalls.add(i)) {
                return i + 1;
            }
        }
        return cursor;
    }

    private boolean hasApprovalBoundCall(int round) {
        return steps.stream().anyMatch(step -> step.round() == round
                && step.entry().kind() == RunTimeline.Kind.TOOL_CALL && approvalBound.test(step.entry().title()));
    }

    private boolean hasCall(int round, String toolName) {
        return steps.stream().anyMatch(step -> step.round() == round
                && step.entry().kind() == RunTimeline.Kind.TOOL_CALL && step.entry().title().equals(toolName));
    }

    /** Whether an event is a person's decision rather than a refusal. */
    static boolean isDecision(GovernanceEvent event) {
        return event.type() == EventType.APPROVAL_DECIDED || event.type() == EventType.INPUT_SUBMITTED;
    }
}
