package io.countersign.console.denials;

import io.countersign.console.common.Messages;
import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.EventType;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import javafx.beans.Observable;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The denial browser's filters as the person sets them: a time range (a preset, or picked days), an event type
 * and texts. Each change is reported once, however many fields it moves (a preset clears the picked days; a
 * picked day turns the range into a custom one).
 */
public final class DenialFilterForm {
    private final Messages messages;
    private final Clock clock;
    private final Runnable changed;

    private final ObjectProperty<TimeRange> range = new SimpleObjectProperty<>(TimeRange.LAST_7_DAYS);
    private final ObjectProperty<LocalDate> from = new SimpleObjectProperty<>();
    private final ObjectProperty<LocalDate> to = new SimpleObjectProperty<>();
    private final ObjectProperty<EventType> type = new SimpleObjectProperty<>();
    private final StringProperty rule = new SimpleStringProperty("");
    private final StringProperty reason = new SimpleStringProperty("");
    private final StringProperty tool = new SimpleStringProperty("");
    private final StringProperty agent = new SimpleStringProperty("");
    private final StringProperty person = new SimpleStringProperty("");
    private final StringProperty search = new SimpleStringProperty("");
    /** Set while one change moves several fields, so that it is reported once. */
    private boolean applying;

    /** @param changed told after each change of the filters */
    DenialFilterForm(Messages messages, Clock clock, Runnable changed) {
        this.messages = Objects.requireNonNull(messages, "messages");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.changed = Objects.requireNonNull(changed, "changed");
        range.addListener((o, was, now) -> {
            if (now != TimeRange.CUSTOM) {
                // a preset replaces picked dates; clearing them must not turn the range back into CUSTOM
                applying = true;
                from.set(null);
                to.set(null);
                applying = false;
            }
            report();
        });
        for (ObjectProperty<LocalDate> date : List.of(from, to)) {
            date.addListener((o, was, now) -> {
                if (!applying) {
                    if (range.get() != TimeRange.CUSTOM) {
                        applying = true;
                        range.set(TimeRange.CUSTOM);
                        applying = false;
                    }
                    report();
                }
            });
        }
        for (Observable input : List.of(type, rule, reason, tool, agent, person, search)) {
            input.addListener(change -> report());
        }
    }

    private void report() {
        if (!applying) {
            changed.run();
        }
    }

    /** Empties every filter but the time range. */
    public void clearFilters() {
        applying = true;
        type.set(null);
        for (StringProperty text : List.of(rule, reason, tool, agent, person, search)) {
            text.set("");
        }
        applying = false;
        report();
    }

    /**
     * The store's filter of the fields, with a preset range measured back from now.
     *
     * @throws IllegalArgumentException when the picked days make an empty range, with a message for the person
     */
    EventFilter build() {
        Instant start = null;
        Instant end = null;
        if (range.get() == TimeRange.CUSTOM) {
            if (from.get() != null && to.get() != null && to.get().isBefore(from.get())) {
                throw new IllegalArgumentException(messages.get("denials.rangeEmpty", from.get(), to.get()));
            }
            start = from.get() == null ? null : from.get().atStartOfDay(clock.getZone()).toInstant();
            end = to.get() == null ? null : to.get().plusDays(1).atStartOfDay(clock.getZone()).toInstant();
        } else if (range.get().span().isPresent()) {
            start = clock.instant().minus(range.get().span().get());
        }
        return EventFilter.all().between(start, end)
                .ofTypes(type.get() == null ? Set.of() : Set.of(type.get()))
                .withRuleId(given(rule)).withReasonCode(given(reason)).withToolName(given(tool))
                .withAgentConfiguration(given(agent)).withActor(given(person)).withText(search.get());
    }

    private static String given(StringProperty text) {
        return text.get() == null || text.get().isBlank() ? null : text.get().strip();
    }

    /** The label of an event type, for the type filter. */
    public String typeLabel(EventType eventType) {
        return eventType == null ? messages.get("denials.filter.anyType") : eventType.code();
    }

    /** The label of a time range. */
    public String rangeLabel(TimeRange shown) {
        return messages.get("denials.range." + shown.name());
    }

    public ObjectProperty<TimeRange> rangeProperty() {
        return range;
    }

    /** The first day of a picked range, inclusive. */
    public ObjectProperty<LocalDate> fromProperty() {
        return from;
    }

    /** The last day of a picked range, inclusive. */
    public ObjectProperty<LocalDate> toProperty() {
        return to;
    }

    /** The one event type shown; {@code null} for all. */
    public ObjectProperty<EventType> typeProperty() {
        return type;
    }

    public StringProperty ruleProperty() {
        return rule;
    }

    public StringProperty reasonProperty() {
        return reason;
    }

    public StringProperty toolProperty() {
        return tool;
    }

    public StringProperty agentProperty() {
        return agent;
    }

    /** The person who acted: the run's initiator for a refusal, the decider for a decision. */
    public StringProperty personProperty() {
        return person;
    }

    /** Free text, searched in the codes and names of every event. */
    public StringProperty searchProperty() {
        return search;
    }
}
