package io.countersign.model;

import static org.assertj.core.api.Assertions.assertThat;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.From;
import net.jqwik.api.constraints.Size;

/** The function names a request shows a provider: always accepted, never shared, always mapped back. */
class FunctionNamesProperties {
    private static final String REGISTRY_CHARACTERS = "abcdefghijklmnopqrstuvwxyz0123456789_.-";

    @Provide
    Arbitrary<String> toolNames() {
        // our registry's names, and names a provider accepts, made to collide often after sanitising
        Arbitrary<String> registry = Arbitraries.strings().withChars(REGISTRY_CHARACTERS).ofMinLength(1)
                .ofMaxLength(64).map(name -> "a" + name.substring(1));
        Arbitrary<String> nearMisses = Arbitraries.of("files.read", "files_read", "files-read", "files.read.x",
                "files.read_x", "files_read_x", "a".repeat(64), "a".repeat(63) + ".", "a".repeat(63) + "_");
        Arbitrary<String> anything = Arbitraries.strings().ofMinLength(0).ofMaxLength(90);
        return Arbitraries.oneOf(registry, nearMisses, anything);
    }

    @Property(tries = 500)
    void everyFunctionNameMatchesThePatternAndTheLength(@ForAll @Size(max = 12) Set<@From("toolNames") String> names) {
        FunctionNames functions = FunctionNames.of(names);

        for (String name : names) {
            assertThat(functions.wire(name)).matches(OpenAiFunctionNameRules.PATTERN)
                    .hasSizeLessThanOrEqualTo(OpenAiFunctionNameRules.MAX_LENGTH);
        }
    }

    @Property(tries = 500)
    void noTwoNamesShareAFunctionNameAndEachMapsBack(@ForAll @Size(max = 12) Set<@From("toolNames") String> names) {
        FunctionNames functions = FunctionNames.of(names);

        Set<String> wires = new HashSet<>();
        for (String name : names) {
            assertThat(wires.add(functions.wire(name))).as("the function name of %s is unique", name).isTrue();
            assertThat(functions.name(functions.wire(name))).isEqualTo(name);
        }
    }

    @Property(tries = 300)
    void anAcceptedNameIsSentAsItIs(@ForAll @Size(max = 12) Set<@From("toolNames") String> names) {
        FunctionNames functions = FunctionNames.of(names);

        names.stream().filter(FunctionNames::accepted).forEach(name -> assertThat(functions.wire(name))
                .isEqualTo(name));
    }

    @Property(tries = 300)
    void theOrderOfTheNamesChangesNothing(@ForAll @Size(max = 12) Set<@From("toolNames") String> names) {
        List<String> reversed = new ArrayList<>(names);
        Collections.reverse(reversed);
        FunctionNames forward = FunctionNames.of(names);
        FunctionNames backward = FunctionNames.of(new LinkedHashSet<>(reversed));

        names.forEach(name -> assertThat(backward.wire(name)).isEqualTo(forward.wire(name)));
    }
}
