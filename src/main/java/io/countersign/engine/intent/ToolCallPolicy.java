package io.countersign.engine.intent;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Names;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.chat.ModelConfiguration;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * A declarative per-intent rule applied at two seams of every round: {@code model} chooses the model before it
 * runs (PRE seam), {@code redirectTo} rewrites an emitted call after it (POST seam). {@code match} runs at both
 * seams; {@code guard} gates only the redirect, so a missing precondition never changes which model reasons. A
 * policy sets at least one of {@code model} and {@code redirectTo}: a model-only policy never redirects, a
 * redirect-only policy never chooses the model. {@link IntentRouting} applies a list of them, first match wins
 * independently at each seam; {@link ToolCallPolicies} reads them from a configuration file.
 *
 * @param name          non-empty, for logging, inspection and tests
 * @param match         the intent gate
 * @param whenTool      the emitted tool names the redirect applies to; empty means any tool
 * @param redirectTo    the tool to dispatch instead, or {@code null}
 * @param model         the model for a matching round, or {@code null}
 * @param argsTransform rewrites the arguments of a redirected call, or {@code null} to keep them
 * @param guard         a deterministic precondition of the redirect, or {@code null} for none
 */
public record ToolCallPolicy(String name, Predicate<DispatchContext> match, Set<String> whenTool, String redirectTo,
                             ModelConfiguration model,
                             BiFunction<ObjectNode, DispatchContext, ObjectNode> argsTransform,
                             Predicate<DispatchContext> guard) {
    public ToolCallPolicy {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a tool call policy needs a non-empty name");
        }
        Objects.requireNonNull(match, "policy \"" + name + "\": match");
        whenTool = whenTool == null ? Set.of() : Set.copyOf(whenTool);
        if (model == null && redirectTo == null) {
            throw new IllegalArgumentException("policy \"" + name
                    + "\" sets neither a model nor a redirect target, so it would do nothing");
        }
        if (redirectTo != null) {
            Names.requireCode(redirectTo, "policy \"" + name + "\": redirect target");
        }
    }

    /** A policy that only chooses the model for the rounds whose intent matches. */
    public static ToolCallPolicy modelFor(String name, Predicate<DispatchContext> match, ModelConfiguration model) {
        return new ToolCallPolicy(name, match, Set.of(), null, model, null, null);
    }

    /**
     * A policy that only redirects, keeping the arguments and with no guard.
     *
     * @param whenTool the emitted tool names to redirect; empty means any tool
     */
    public static ToolCallPolicy redirect(String name, Predicate<DispatchContext> match, Set<String> whenTool,
                                          String redirectTo) {
        return new ToolCallPolicy(name, match, whenTool, redirectTo, null, null, null);
    }

    /** True when this policy takes part in the PRE seam and matches. */
    public boolean choosesModel(DispatchContext context) {
        return model != null && match.test(context);
    }

    /** True when this policy takes part in the POST seam and redirects the given emitted call. */
    public boolean redirects(ToolCall emitted, DispatchContext context) {
        return redirectTo != null
                && (whenTool.isEmpty() || whenTool.contains(emitted.name()))
                && match.test(context)
                && (guard == null || guard.test(context));
    }
}
