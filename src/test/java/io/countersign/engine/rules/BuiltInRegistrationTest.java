package io.countersign.engine.rules;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.invocation.ToolInvocationRule;
import io.countersign.engine.invocation.ToolTargetResolver;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class BuiltInRegistrationTest {
    @Test
    void serviceLoaderFindsTheBuiltInRules() {
        assertThat(ServiceLoader.load(ToolInvocationRule.class).stream().map(ServiceLoader.Provider::type))
                .containsExactly(WorkspaceBoundaryRule.class, RepeatAfterDenialRule.class);
    }

    @Test
    void serviceLoaderFindsTheFileTargetResolver() {
        assertThat(ServiceLoader.load(ToolTargetResolver.class).stream().map(ServiceLoader.Provider::type))
                .containsExactly(FileTargetResolver.class);
    }
}
