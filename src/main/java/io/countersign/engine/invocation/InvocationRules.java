package io.countersign.engine.invocation;

import io.countersign.engine.Names;
import io.countersign.engine.call.InvocationVerdict;
import io.countersign.engine.call.ToolInvocationDecision;
import io.countersign.engine.call.ToolInvocationTarget;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * An installation's invocation rules and target resolvers, in their declared order, and the two policies that ask
 * them: {@link #invocationPolicy()} (every rule, just before a call executes) and {@link #preApprovalPolicy()}
 * (only the {@link PreApprovalInvocationRule}s, before an approval card is shown).
 *
 * <p>Both policies first resolve the call's target with every resolver, then ask the rules in order; the first
 * denial wins and carries the rule's identifier. A rule that fails to decide refuses the call with a failure
 * code: {@code rule_failed} when it throws or answers nothing, {@code history_incomplete} (without asking it) when
 * it needs a complete history the run cannot prove, {@code policy_failed} (naming no rule) when
 * a resolver throws or two resolvers claim one call. The text of a rule's or resolver's exception is never shown,
 * stored or logged: the log names only the rule or resolver and the exception's class.
 */
public final class InvocationRules {
    private static final System.Logger LOG = System.getLogger(InvocationRules.class.getName());
    private static final InvocationRules NONE = new InvocationRules(List.of(), List.of(), List.of(), LiveRules.NONE);
    private static final InvocationVerdict ALLOWED_WITHOUT_TARGET = InvocationVerdict.allowed(null);
    private static final InvocationVerdict POLICY_FAILED = InvocationVerdict.policyFailed();
    private static final ToolInvocationDecision RULE_FAILED = ToolInvocationDecision.deny(InvocationVerdict.RULE_FAILED);
    private static final ToolInvocationDecision HISTORY_INCOMPLETE =
            ToolInvocationDecision.deny(InvocationVerdict.HISTORY_INCOMPLETE);
    // Compared by identity only: marks a failed resolution without allocating on the hot path.
    private static final ToolInvocationTarget UNRESOLVABLE = new ToolInvocationTarget("unresolvable", "unresolvable");

    // Arrays, and identifiers read once at construction: evaluation runs at least twice per call.
    private final ToolInvocationRule[] rules;
    private final String[] identifiers;
    private final ToolInvocationRule[] preApprovalRules;
    private final String[] preApprovalIdentifiers;
    private final ToolTargetResolver[] resolvers;
    private final LiveRules live;
    private final ToolInvocationPolicy invocationPolicy;
    private final PreApprovalInvocationPolicy preApprovalPolicy;
    private final ApprovalAsks approvalAsks;

    private InvocationRules(List<ToolInvocationRule> rules, List<String> identifiers,
                            List<ToolTargetResolver> resolvers, LiveRules live) {
        this.rules = rules.toArray(ToolInvocationRule[]::new);
        this.identifiers = identifiers.toArray(String[]::new);
        List<ToolInvocationRule> markedRules = new ArrayList<>();
        List<String> markedIdentifiers = new ArrayList<>();
        for (int i = 0; i < rules.size(); i++) {
            if (rules.get(i) instanceof PreApprovalInvocationRule) {
                markedRules.add(rules.get(i));
                markedIdentifiers.add(identifiers.get(i));
            }
        }
        this.preApprovalRules = markedRules.toArray(ToolInvocationRule[]::new);
        this.preApprovalIdentifiers = markedIdentifiers.toArray(String[]::new);
        this.resolvers = resolvers.toArray(ToolTargetResolver[]::new);
        this.live = live;
        this.invocationPolicy = context -> evaluate(context, this.rules, this.identifiers, false);
        this.preApprovalPolicy = context -> evaluate(context, preApprovalRules, preApprovalIdentifiers, true);
        this.approvalAsks = this::ask;
    }

    /** No rules and no resolvers: every call is allowed, exactly as if the feature were absent. */
    public static InvocationRules none() {
        return NONE;
    }

    /**
     * The given rules and resolvers, in this order.
     *
     * @throws IllegalArgumentException for a missing rule or resolver, an identifier that is not a code
     *                                  ({@code [a-z][a-z0-9_.-]*}, 1 to 64 ASCII characters), an identifier used
     *                                  twice, or a resolver
     *                                  registered twice (it would claim every call it understands twice)
     */
    public static InvocationRules of(List<ToolInvocationRule> rules, List<ToolTargetResolver> resolvers) {
        Objects.requireNonNull(rules, "rules");
        Objects.requireNonNull(resolvers, "resolvers");
        List<String> identifiers = new ArrayList<>(rules.size());
        for (int i = 0; i < rules.size(); i++) {
            ToolInvocationRule rule = rules.get(i);
            if (rule == null) {
                throw new IllegalArgumentException("invocation rule at position " + i + " is missing (null)");
            }
            String identifier = Names.requireCode(rule.identifier(),
                    "identifier of invocation rule " + rule.getClass().getName());
            if (identifiers.contains(identifier)) {
                throw new IllegalArgumentException("two invocation rules use the identifier \"" + identifier
                        + "\" (the second is " + rule.getClass().getName() + "); identifiers must be unique");
            }
            identifiers.add(identifier);
        }
        Set<ToolTargetResolver> resolverInstances = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < resolvers.size(); i++) {
            ToolTargetResolver resolver = resolvers.get(i);
            if (resolver == null) {
                throw new IllegalArgumentException("target resolver at position " + i + " is missing (null)");
            }
            if (!resolverInstances.add(resolver)) {
                throw new IllegalArgumentException("target resolver " + resolver.getClass().getName()
                        + " is registered twice; register each resolver once");
            }
        }
        return rules.isEmpty() && resolvers.isEmpty() ? NONE
                : new InvocationRules(rules, identifiers, resolvers, LiveRules.NONE);
    }

    /**
     * These rules, then the live ones (the declarative rules an admin saves), asked after them in the same way:
     * the first denial of either wins, and a live rule that fails refuses the call as a fixed one does. A live rule
     * whose identifier a fixed rule has is not asked.
     */
    public InvocationRules withLive(LiveRules liveRules) {
        return new InvocationRules(List.of(rules), List.of(identifiers), List.of(resolvers),
                Objects.requireNonNull(liveRules, "liveRules"));
    }

    /**
     * The rules and resolvers registered through {@link ServiceLoader} (in the order of their service files), then
     * the ones registered in code, validated as {@link #of}.
     *
     * @throws IllegalArgumentException as {@link #of}, and for a resolver registered in code whose class a
     *                                  service file already registers
     * @throws IllegalStateException    when a registered rule or resolver cannot be loaded
     */
    public static InvocationRules discover(List<ToolInvocationRule> extraRules,
                                           List<ToolTargetResolver> extraResolvers) {
        Objects.requireNonNull(extraRules, "extraRules");
        Objects.requireNonNull(extraResolvers, "extraResolvers");
        List<ToolTargetResolver> resolvers = loaded(ToolTargetResolver.class);
        Set<Class<?>> loadedClasses = new HashSet<>();
        resolvers.forEach(resolver -> loadedClasses.add(resolver.getClass()));
        for (ToolTargetResolver extra : extraResolvers) {
            if (extra != null && loadedClasses.contains(extra.getClass())) {
                throw new IllegalArgumentException("target resolver " + extra.getClass().getName()
                        + " is already registered through its service file; do not register it in code as well");
            }
        }
        resolvers.addAll(extraResolvers);
        List<ToolInvocationRule> rules = loaded(ToolInvocationRule.class);
        rules.addAll(extraRules);
        return of(rules, resolvers);
    }

    private static <T> List<T> loaded(Class<T> service) {
        List<T> all = new ArrayList<>();
        try {
            ServiceLoader.load(service).forEach(all::add);
        } catch (ServiceConfigurationError e) {
            throw new IllegalStateException("could not load the registered " + service.getSimpleName()
                    + " implementations: " + e.getMessage(), e);
        }
        return all;
    }

    /** Asks every rule just before a call executes. */
    public ToolInvocationPolicy invocationPolicy() {
        return invocationPolicy;
    }

    /** Asks only the {@link PreApprovalInvocationRule}s, before an approval card is shown. */
    public PreApprovalInvocationPolicy preApprovalPolicy() {
        return preApprovalPolicy;
    }

    /**
     * Asks the live rules whether a call needs a person although its tool runs without one, on the target the
     * resolvers name (none when they fail: the invocation policy refuses that call anyway).
     */
    public ApprovalAsks approvalAsks() {
        return approvalAsks;
    }

    /** The fixed rules' identifiers, in the order they are asked. */
    public List<String> identifiers() {
        return List.of(identifiers);
    }

    private InvocationVerdict evaluate(ToolInvocationContext context, ToolInvocationRule[] asked,
                                       String[] askedIdentifiers, boolean preApproval) {
        ToolInvocationTarget target = resolveTarget(context);
        if (target == UNRESOLVABLE) {
            return POLICY_FAILED;
        }
        ToolInvocationContext ruleContext = Objects.equals(target, context.target()) ? context
                : new ToolInvocationContext(context.toolName(), context.arguments(), context.configuration(), target,
                        context.executionContext(), context.history());
        boolean historyComplete = context.history().complete();
        for (int i = 0; i < asked.length; i++) {
            ToolInvocationDecision decision = decide(asked[i], askedIdentifiers[i], ruleContext, historyComplete);
            if (decision.denied()) {
                return new InvocationVerdict(decision, askedIdentifiers[i], target);
            }
        }
        LiveRules.Snapshot now = live.current();
        for (ToolInvocationRule rule : preApproval ? now.preApprovalRules() : now.rules()) {
            String identifier = rule.identifier();
            if (isFixed(identifier)) {
                continue;
            }
            ToolInvocationDecision decision = decide(rule, identifier, ruleContext, historyComplete);
            if (decision.denied()) {
                return new InvocationVerdict(decision, identifier, target);
            }
        }
        return target == null ? ALLOWED_WITHOUT_TARGET : InvocationVerdict.allowed(target);
    }

    private ApprovalAsk ask(ToolInvocationContext context) {
        ApprovalAsks asks = live.current().asks();
        if (asks == ApprovalAsks.NONE) {
            return ApprovalAsk.NONE; // no ask rule: the resolvers (which may read the file system) are not run
        }
        ToolInvocationTarget target = resolveTarget(context);
        ToolInvocationContext asked = new ToolInvocationContext(context.toolName(), context.arguments(),
                context.configuration(), target == UNRESOLVABLE ? null : target, context.executionContext(),
                context.history());
        return asks.ask(asked);
    }

    private boolean isFixed(String identifier) {
        for (String fixed : identifiers) {
            if (fixed.equals(identifier)) {
                return true;
            }
        }
        return false;
    }

    /** The one target some resolver claims, {@code null} when none does, {@link #UNRESOLVABLE} on a failure. */
    private ToolInvocationTarget resolveTarget(ToolInvocationContext context) {
        ToolInvocationTarget target = null;
        ToolTargetResolver claimant = null;
        for (ToolTargetResolver resolver : resolvers) {
            ToolInvocationTarget resolved;
            try {
                resolved = resolver.resolve(context.toolName(), context.arguments(), context.configuration());
            } catch (Throwable failure) {
                rethrowIfFatal(failure);
                LOG.log(Level.WARNING, "Target resolver {0} failed with {1}; the call is refused "
                        + InvocationVerdict.POLICY_FAILED, resolver.getClass().getName(), failure.getClass().getName());
                return UNRESOLVABLE;
            }
            if (resolved != null) {
                if (claimant != null) {
                    LOG.log(Level.WARNING, "Target resolvers {0} and {1} both claim a call to {2}; the call is refused "
                            + InvocationVerdict.POLICY_FAILED, claimant.getClass().getName(),
                            resolver.getClass().getName(), context.toolName());
                    return UNRESOLVABLE;
                }
                claimant = resolver;
                target = resolved;
            }
        }
        return target;
    }

    private static ToolInvocationDecision decide(ToolInvocationRule rule, String identifier,
                                                 ToolInvocationContext context, boolean historyComplete) {
        ToolInvocationDecision decision;
        try {
            if (!historyComplete && rule.requiresCompleteHistory()) {
                return HISTORY_INCOMPLETE;
            }
            decision = rule.decide(context);
        } catch (Throwable failure) {
            rethrowIfFatal(failure);
            LOG.log(Level.WARNING, "Invocation rule {0} failed with {1}; the call is refused "
                    + InvocationVerdict.RULE_FAILED, identifier, failure.getClass().getName());
            return RULE_FAILED;
        }
        if (decision == null) {
            LOG.log(Level.WARNING, "Invocation rule {0} answered nothing; the call is refused "
                    + InvocationVerdict.RULE_FAILED, identifier);
            return RULE_FAILED;
        }
        return decision;
    }

    // A rule's own failure (even a stack overflow or a missing class) refuses the call; a failing JVM does not
    // pretend to decide anything.
    private static void rethrowIfFatal(Throwable failure) {
        if (failure instanceof VirtualMachineError && !(failure instanceof StackOverflowError)) {
            throw (VirtualMachineError) failure;
        }
    }

    @Override
    public String toString() {
        return "InvocationRules" + identifiers() + " with " + resolvers.length + " target resolver(s)";
    }
}
