package io.countersign.engine.intent;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.chat.ModelConfiguration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The two seams of a round where intent policies act (SPEC section 8). Before the model runs,
 * {@link #chooseModel} picks its model: the first policy with a model whose {@code match} holds, else the
 * {@link RoleModelResolver}, else the default. After it emitted calls, {@link #route} decides each call: the
 * first policy with a redirect whose {@code whenTool}, {@code match} and {@code guard} hold rewrites it, then the
 * {@link ToolCallDispatchHook} may override, and last the palette gate drops a rewrite to a tool that is not
 * offered. Both seams read the same {@link DispatchContext} shape, built by {@link #context}.
 *
 * <p>A policy, resolver or hook that throws is skipped for that decision with a warning naming it (never the
 * exception text, which may quote the conversation): a broken policy must never end a run. With nothing
 * configured both seams return their input untouched, so a loop is byte-identical to one without the feature.
 * Immutable and safe for concurrent use when the policies, resolver and hook are.
 */
public final class IntentRouting {
    private final List<ToolCallPolicy> modelPolicies;
    private final List<ToolCallPolicy> redirectPolicies;
    private final RoleModelResolver resolver;
    private final ToolCallDispatchHook hook;
    private final Logger logger;

    /**
     * @param policies in declared order; at each seam the first that applies wins
     * @param resolver the raw PRE seam, or {@code null}
     * @param hook     the raw POST seam, or {@code null}
     * @param logger   where warnings go: dropped rewrites and skipped policies
     */
    public IntentRouting(List<ToolCallPolicy> policies, RoleModelResolver resolver, ToolCallDispatchHook hook,
                         Logger logger) {
        Objects.requireNonNull(policies, "policies");
        for (int i = 0; i < policies.size(); i++) {
            if (policies.get(i) == null) {
                throw new IllegalArgumentException("intent policy at index " + i + " is null");
            }
        }
        this.modelPolicies = policies.stream().filter(policy -> policy.model() != null).toList();
        this.redirectPolicies = policies.stream().filter(policy -> policy.redirectTo() != null).toList();
        this.resolver = resolver;
        this.hook = hook;
        this.logger = Objects.requireNonNull(logger, "logger");
    }

    /** As the constructor, warning through this class's logger. */
    public static IntentRouting of(List<ToolCallPolicy> policies, RoleModelResolver resolver,
                                   ToolCallDispatchHook hook) {
        return new IntentRouting(policies, resolver, hook, Logger.getLogger(IntentRouting.class.getName()));
    }

    /**
     * The one way both seams build what policies see, so a {@code match} behaves alike at both.
     *
     * @param messages          the transcript so far; at the POST seam it ends with the just-emitted assistant turn
     * @param scope             the run's scope values, or {@code null} for none
     * @param resolvedToolNames the names offered this round
     * @param forcedToolChoice  the forced tool choice, or {@code null} when none
     */
    public static DispatchContext context(List<ChatMessage> messages, Map<String, String> scope,
                                          Collection<String> resolvedToolNames, String forcedToolChoice) {
        return new DispatchContext(messages, scope == null ? Map.of() : scope, List.copyOf(resolvedToolNames),
                forcedToolChoice);
    }

    /** The PRE seam: the model for this round. {@code guard} is never consulted here. */
    public ModelConfiguration chooseModel(DispatchContext context, ModelConfiguration defaultModel) {
        Objects.requireNonNull(defaultModel, "defaultModel");
        if (modelPolicies.isEmpty() && resolver == null) {
            return defaultModel;
        }
        for (ToolCallPolicy policy : modelPolicies) {
            if (choosesModel(policy, context)) {
                return policy.model();
            }
        }
        ModelConfiguration resolved = resolver == null ? null : resolve(context);
        return resolved == null ? defaultModel : resolved;
    }

    /**
     * The POST seam: for each emitted call in order, the call to dispatch. The returned calls keep the emitted
     * ids; a rewrite whose target is not in {@code offeredToolNames} is dropped with a warning and the emitted
     * call dispatches.
     */
    public List<RoutedCall> route(List<ToolCall> emitted, DispatchContext context, Set<String> offeredToolNames) {
        Objects.requireNonNull(offeredToolNames, "offeredToolNames");
        if (redirectPolicies.isEmpty() && hook == null) {
            return emitted.stream().map(RoutedCall::unchanged).toList();
        }
        List<RoutedCall> routed = new ArrayList<>(emitted.size());
        for (ToolCall call : emitted) {
            routed.add(routeOne(call, context, offeredToolNames));
        }
        return List.copyOf(routed);
    }

    private RoutedCall routeOne(ToolCall emitted, DispatchContext context, Set<String> offeredToolNames) {
        ToolCallPolicy applied = null;
        ToolCall proposed = emitted;
        for (ToolCallPolicy policy : redirectPolicies) {
            ToolCall rewrite = redirect(policy, emitted, context);
            if (rewrite != null) {
                applied = policy;
                proposed = rewrite;
                break;
            }
        }
        ToolCall survivor = hook == null ? proposed : askHook(proposed, emitted, context);
        String policyName = applied == null ? null : applied.name();
        if (survivor.equals(emitted) || offeredToolNames.contains(survivor.name())) {
            return new RoutedCall(survivor, emitted, policyName, false);
        }
        String source = applied != null && survivor.equals(proposed)
                ? "intent policy \"" + policyName + "\"" : "the dispatch hook";
        warn(source + " redirected \"" + emitted.name() + "\" to \"" + survivor.name()
                + "\", which is not offered this round; the rewrite is dropped and the emitted call dispatches");
        return new RoutedCall(emitted, emitted, policyName, true);
    }

    private boolean choosesModel(ToolCallPolicy policy, DispatchContext context) {
        try {
            return policy.choosesModel(context);
        } catch (RuntimeException failure) {
            warnFailed(policy, "choosing the model", "round");
            return false;
        }
    }

    /** The policy's rewrite of the call, or {@code null} when it does not apply (or fails) for this call. */
    private ToolCall redirect(ToolCallPolicy policy, ToolCall emitted, DispatchContext context) {
        try {
            if (!policy.redirects(emitted, context)) {
                return null;
            }
            ObjectNode arguments = policy.argsTransform() == null
                    ? emitted.arguments() : policy.argsTransform().apply(emitted.arguments(), context);
            if (arguments == null) {
                warnFailed(policy, "routing a call", "call");
                return null;
            }
            return emitted.withTarget(policy.redirectTo(), arguments);
        } catch (RuntimeException failure) {
            warnFailed(policy, "routing a call", "call");
            return null;
        }
    }

    private ModelConfiguration resolve(DispatchContext context) {
        try {
            return resolver.resolve(context);
        } catch (RuntimeException failure) {
            warn("the role model resolver failed while choosing the model; the default model is used");
            return null;
        }
    }

    private ToolCall askHook(ToolCall proposed, ToolCall emitted, DispatchContext context) {
        ToolCall answer;
        try {
            answer = hook.onDispatch(proposed, emitted, context);
        } catch (RuntimeException failure) {
            warn("the dispatch hook failed while routing a call; the proposed call is kept");
            return proposed;
        }
        // The id ties the tool's result to the assistant turn that asked for it.
        if (answer == null || !answer.id().equals(emitted.id())) {
            warn("the dispatch hook returned no call or changed the call's id; the proposed call is kept");
            return proposed;
        }
        return answer;
    }

    // Failures are reported without the exception: its text may quote the conversation or the arguments.
    private void warnFailed(ToolCallPolicy policy, String during, String skippedFor) {
        warn("intent policy \"" + policy.name() + "\" failed while " + during + "; it is skipped for this "
                + skippedFor);
    }

    private void warn(String message) {
        logger.log(Level.WARNING, message);
    }
}
