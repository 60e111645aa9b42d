package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.event.DayCount;
import io.countersign.engine.event.EventCharts;
import io.countersign.engine.event.EventCount;
import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.EventPage;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.event.PageRequest;
import io.countersign.engine.port.ActorDirectory;
import io.countersign.store.EventStore;
import io.countersign.store.RunStore;
import java.io.IOException;
import java.io.Writer;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;

/** The event use cases over the store's {@link EventStore}. */
public final class DefaultEventService implements EventService {
    private final EventStore events;
    private final RunStore runs;
    private final Permissions permissions;

    public DefaultEventService(EventStore events, RunStore runs, ActorDirectory users) {
        this.events = Objects.requireNonNull(events, "events");
        this.runs = Objects.requireNonNull(runs, "runs");
        this.permissions = new Permissions(users);
    }

    @Override
    public EventPage page(Actor actor, EventFilter filter, PageRequest request) {
        permissions.requireNow(actor, Operation.QUERY_EVENTS);
        return events.page(filter, request);
    }

    @Override
    public List<EventCount> counts(Actor actor, EventFilter filter, EventDimension dimension) {
        permissions.requireNow(actor, Operation.QUERY_EVENTS);
        return switch (dimension) {
            case REASON -> events.countsByReason(filter);
            case RULE -> events.countsByRule(filter);
            case TOOL -> events.countsByTool(filter);
        };
    }

    @Override
    public List<DayCount> countsByDay(Actor actor, EventFilter filter, ZoneOffset offset) {
        permissions.requireNow(actor, Operation.QUERY_EVENTS);
        return events.countsByDay(filter, offset);
    }

    @Override
    public EventCharts charts(Actor actor, EventFilter filter, ZoneOffset offset) {
        permissions.requireNow(actor, Operation.QUERY_EVENTS);
        return events.charts(filter, offset);
    }

    @Override
    public long exportCsv(Actor actor, EventFilter filter, Writer out) throws IOException {
        permissions.requireNow(actor, Operation.QUERY_EVENTS);
        out.write(EventCsv.HEADER);
        out.write("\r\n");
        long written = 0;
        PageRequest request = PageRequest.first(PageRequest.MAX_SIZE);
        while (request != null) {
            EventPage page = events.page(filter, request);
            for (GovernanceEvent event : page.events()) {
                out.write(EventCsv.row(event));
                out.write("\r\n");
                written++;
            }
            request = page.nextCursor().map(cursor -> PageRequest.after(cursor, PageRequest.MAX_SIZE)).orElse(null);
        }
        out.flush();
        return written;
    }

    @Override
    public long purgeOlderThan(Actor actor, Duration age) {
        permissions.requireNow(actor, Operation.PURGE_EVENTS);
        return events.purgeOlderThan(age, actor.name());
    }

    @Override
    public List<Decision.CallVerdict> denials(Actor actor, GovernanceEvent event) {
        permissions.requireNow(actor, Operation.QUERY_EVENTS);
        if (event.type() != EventType.APPROVAL_DECIDED || event.runId() == null || event.actor() == null) {
            return List.of();
        }
        return runs.decisionNear(event.runId(), event.actor(), event.time())
                .filter(Decision.Approval.class::isInstance).map(Decision.Approval.class::cast).stream()
                .flatMap(decision -> decision.verdicts().stream()).filter(verdict -> !verdict.approved()).toList();
    }
}
