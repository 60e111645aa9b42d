package io.countersign.engine.event;

import java.util.Objects;

/**
 * Which page of events to read, newest first: the first page, the page after a cursor (older events), or the
 * page before one (newer events).
 */
public record PageRequest(Direction direction, EventCursor cursor, int size) {
    public static final int MAX_SIZE = 1000;

    /** Where the page lies relative to the cursor. */
    public enum Direction {
        FIRST, AFTER, BEFORE
    }

    public PageRequest {
        Objects.requireNonNull(direction, "direction");
        if ((direction == Direction.FIRST) != (cursor == null)) {
            throw new IllegalArgumentException(direction == Direction.FIRST
                    ? "the first page takes no cursor" : "a page " + direction + " a cursor needs the cursor");
        }
        if (size < 1 || size > MAX_SIZE) {
            throw new IllegalArgumentException("a page holds 1 to " + MAX_SIZE + " events, not " + size);
        }
    }

    /** The newest events. */
    public static PageRequest first(int size) {
        return new PageRequest(Direction.FIRST, null, size);
    }

    /** The events that follow the cursor in newest-first order: the next, older page. */
    public static PageRequest after(EventCursor cursor, int size) {
        return new PageRequest(Direction.AFTER, Objects.requireNonNull(cursor, "cursor"), size);
    }

    /** The events that precede the cursor in newest-first order: the previous, newer page. */
    public static PageRequest before(EventCursor cursor, int size) {
        return new PageRequest(Direction.BEFORE, Objects.requireNonNull(cursor, "cursor"), size);
    }
}
