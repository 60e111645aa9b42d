package io.countersign.engine.intent;

import io.countersign.engine.chat.ModelConfiguration;

/** The raw PRE-model seam: chooses a model for a round, or {@code null} to leave the choice to the default. */
@FunctionalInterface
public interface RoleModelResolver {

    ModelConfiguration resolve(DispatchContext context);
}
