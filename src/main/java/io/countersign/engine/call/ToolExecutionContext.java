package io.countersign.engine.call;

import io.countersign.engine.Actor;
import java.util.Locale;
import java.util.Objects;

/**
 * Who a run's calls act for. {@code actingUser} is the run owner: approved calls execute under this identity,
 * never the approver's. {@code initialInvocationHistory} proves the prior observations of a run that does not
 * start from a freshly assembled prompt; {@code null} when the caller has none.
 */
public record ToolExecutionContext(Actor initiatingActor, Actor actingUser, String runReference, Locale locale,
                                   ToolInvocationHistory initialInvocationHistory) {
    public ToolExecutionContext {
        Objects.requireNonNull(initiatingActor, "initiatingActor");
        Objects.requireNonNull(actingUser, "actingUser");
        Objects.requireNonNull(runReference, "runReference");
        locale = locale == null ? Locale.ENGLISH : locale;
    }

    /** A context where the initiator is also the acting user, with no prior history. */
    public static ToolExecutionContext of(Actor actor, String runReference, Locale locale) {
        return new ToolExecutionContext(actor, actor, runReference, locale, null);
    }

    public ToolExecutionContext withInitialInvocationHistory(ToolInvocationHistory history) {
        return new ToolExecutionContext(initiatingActor, actingUser, runReference, locale, history);
    }
}
