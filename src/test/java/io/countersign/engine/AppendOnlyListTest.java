package io.countersign.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AppendOnlyListTest {
    @Test
    void aLongerListLeavesTheShorterOneAsItWas() {
        AppendOnlyList<String> one = AppendOnlyList.of(List.of("a"));
        AppendOnlyList<String> two = one.plus("b");
        AppendOnlyList<String> three = two.plus("c");

        assertThat(one).containsExactly("a");
        assertThat(two).containsExactly("a", "b");
        assertThat(three).containsExactly("a", "b", "c").isEqualTo(List.of("a", "b", "c"));
        assertThat(three.hashCode()).isEqualTo(List.of("a", "b", "c").hashCode());
    }

    @Test
    void twoListsGrownFromTheSameOneDoNotSeeEachOthersElements() {
        AppendOnlyList<String> base = AppendOnlyList.of(List.of("a")).plus("b");
        AppendOnlyList<String> left = base.plus("left");
        AppendOnlyList<String> right = base.plus("right");

        assertThat(left).containsExactly("a", "b", "left");
        assertThat(right).containsExactly("a", "b", "right");
        assertThat(left.plus("more")).containsExactly("a", "b", "left", "more");
        assertThat(right.plus("more")).containsExactly("a", "b", "right", "more");
    }

    @Test
    void growingPastAnyCapacityKeepsEveryElementInOrder() {
        AppendOnlyList<Integer> list = AppendOnlyList.of(List.of());
        List<AppendOnlyList<Integer>> every = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            list = list.plus(i);
            every.add(list);
        }

        for (int size = 1; size <= 1_000; size++) {
            AppendOnlyList<Integer> earlier = every.get(size - 1);
            assertThat(earlier).hasSize(size);
            assertThat(earlier.get(size - 1)).isEqualTo(size - 1);
        }
    }

    @Test
    void aReplacementIsANewListAndTheOldOneKeepsItsElement() {
        AppendOnlyList<String> list = AppendOnlyList.of(List.of("a", "b", "c"));

        AppendOnlyList<String> replaced = list.replacing(1, "B");

        assertThat(replaced).containsExactly("a", "B", "c");
        assertThat(list).containsExactly("a", "b", "c");
        assertThat(replaced.plus("d")).containsExactly("a", "B", "c", "d");
    }

    @Test
    void itCannotBeChangedInPlaceNorHoldNull() {
        AppendOnlyList<String> list = AppendOnlyList.of(List.of("a"));

        assertThatThrownBy(() -> list.add("b")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> list.set(0, "b")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> list.plus(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> AppendOnlyList.of(java.util.Arrays.asList("a", null)))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> list.get(1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(AppendOnlyList.of(list)).isSameAs(list);
    }
}
