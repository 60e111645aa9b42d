package io.countersign.engine;

import java.util.AbstractList;
import java.util.Collection;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * An immutable list that grows by {@link #plus} without copying: the longer list shares the shorter one's
 * elements, and the shorter one stays as it was. A run's transcript and history gain an entry with every call and
 * are handed on whole at every round; a gateway run holds every call of its host's session, so copying them made
 * each call cost more than the one before.
 *
 * @param <E> the elements, never null
 */
public final class AppendOnlyList<E> extends AbstractList<E> implements RandomAccess {
    private static final int FIRST_CAPACITY = 8;

    private final Slots slots;
    private final int size;

    /** The array several lists share; the longest of them has taken {@code used} of its places. */
    private static final class Slots {
        final Object[] elements;
        int used;

        Slots(Object[] elements, int used) {
            this.elements = elements;
            this.used = used;
        }
    }

    private AppendOnlyList(Slots slots, int size) {
        this.slots = slots;
        this.size = size;
    }

    /** The elements as such a list: the same list when it already is one, else a copy. */
    @SuppressWarnings("unchecked")
    public static <E> AppendOnlyList<E> of(Collection<? extends E> elements) {
        if (elements instanceof AppendOnlyList<?> list) {
            return (AppendOnlyList<E>) list;
        }
        Object[] copy = elements.toArray();
        for (Object element : copy) {
            Objects.requireNonNull(element, "element");
        }
        return new AppendOnlyList<>(new Slots(copy, copy.length), copy.length);
    }

    /** This list with {@code element} after its last. */
    public AppendOnlyList<E> plus(E element) {
        Objects.requireNonNull(element, "element");
        synchronized (slots) {
            if (slots.used == size && size < slots.elements.length) {
                slots.elements[size] = element;
                slots.used = size + 1;
                return new AppendOnlyList<>(slots, size + 1);
            }
        }
        // full, or a longer list already took the next place: this one goes on in an array of its own
        Object[] grown = new Object[Math.max(FIRST_CAPACITY, size * 2)];
        System.arraycopy(slots.elements, 0, grown, 0, size);
        grown[size] = element;
        return new AppendOnlyList<>(new Slots(grown, size + 1), size + 1);
    }

    /** This list with {@code element} in place of the one at {@code index}; a copy, as a replacement is rare. */
    public AppendOnlyList<E> replacing(int index, E element) {
        Objects.checkIndex(index, size);
        Objects.requireNonNull(element, "element");
        Object[] copy = new Object[Math.max(FIRST_CAPACITY, size)];
        System.arraycopy(slots.elements, 0, copy, 0, size);
        copy[index] = element;
        return new AppendOnlyList<>(new Slots(copy, size), size);
    }

    @Override
    @SuppressWarnings("unchecked")
    public E get(int index) {
        Objects.checkIndex(index, size);
        return (E) slots.elements[index];
    }

    @Override
    public int size() {
        return size;
    }
}
