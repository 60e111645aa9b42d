package io.countersign.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import java.util.List;
import org.junit.jupiter.api.Test;

class CountedEventsTest {
    /** A row as the tables of counts store it: its stretch, its first {@code width} values encoded, its count. */
    private static List<String> stored(CountedEvents events, CountedEvents.Sorted sorted, int width) {
        return sorted.rows(width).stream().map(row -> {
            StringBuilder text = new StringBuilder(row.stretch() + " " + events.value(row, 0));
            for (int column = 1; column < width; column++) {
                text.append(" [").append(events.encodedValue(row, column)).append(']');
            }
            return text.append(" x").append(row.count()).toString();
        }).toList();
    }

    private static CountedEvents sample() {
        CountedEvents events = new CountedEvents(3);
        events.add(49, "tool_denied", "b", "x");
        events.add(2, "tool_denied", "b", null);
        events.add(49, "tool_denied", null, "x");
        events.add(2, "approval_decided", "b", "x");
        events.add(49, "tool_denied", "b", "x");
        events.add(2, "tool_denied", "a", "y");
        events.add(2, "tool_denied", "b", null);
        return events;
    }

    @Test
    void rowsComeByStretchThenByValuesMissingFirstEachKeyOnceWithItsEvents() {
        CountedEvents events = sample();
        assertThat(stored(events, events.sorted(hour -> hour), 3)).containsExactly(
                "2 approval_decided [=b] [=x] x1",
                "2 tool_denied [=a] [=y] x1",
                "2 tool_denied [=b] [] x2",
                "49 tool_denied [] [=x] x1",
                "49 tool_denied [=b] [=x] x2");
    }

    @Test
    void aTableOfFewerColumnsAddsUpItsRowsFromTheSameOrder() {
        CountedEvents events = sample();
        CountedEvents.Sorted byHour = events.sorted(hour -> hour);
        assertThat(stored(events, byHour, 2)).containsExactly(
                "2 approval_decided [=b] x1",
                "2 tool_denied [=a] x1",
                "2 tool_denied [=b] x2",
                "49 tool_denied [] x1",
                "49 tool_denied [=b] x2");
        assertThat(stored(events, events.sorted(hour -> Math.floorDiv(hour, 24)), 2)).containsExactly(
                "0 approval_decided [=b] x1",
                "0 tool_denied [=a] x1",
                "0 tool_denied [=b] x2",
                "2 tool_denied [] x1",
                "2 tool_denied [=b] x2");
    }

    @Test
    void thousandsOfEventsOfTwoKeysMakeTwoRows() {
        CountedEvents events = new CountedEvents(3);
        for (int i = 0; i < 5_000; i++) {
            events.add(7, "tool_denied", i % 2 == 0 ? "even" : "odd", null);
        }
        assertThat(stored(events, events.sorted(hour -> hour), 3))
                .containsExactly("7 tool_denied [=even] [] x2500", "7 tool_denied [=odd] [] x2500");
    }

    @Test
    void noEventsMakeNoRows() {
        CountedEvents events = new CountedEvents(3);
        assertThat(events.sorted(hour -> hour).rows(3)).isEmpty();
    }

    @Test
    void anEventWithTheWrongNumberOfValuesIsRefused() {
        assertThatThrownBy(() -> new CountedEvents(3).add(1, "tool_denied", "b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("expected 3 counted values, got 2");
    }
}
