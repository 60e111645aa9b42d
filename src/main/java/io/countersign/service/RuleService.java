package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.declarative.DeclarativeRule;
import io.countersign.engine.declarative.RecordedCall;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Declarative rules for admins: each saved as an audited, hash-chained setting change with a note, live in every
 * process through the change feed, and tried over the recorded calls before it goes live.
 */
public interface RuleService {

    /** The saved rules, in identifier order, each with the calls of the last seven days it matches. */
    List<RuleSummary> list(Actor actor);

    /** One saved rule. */
    Optional<DeclarativeRule> find(Actor actor, String identifier);

    /** Why the rule cannot be saved as it is (its condition's line, column and the fields that exist), or empty. */
    Optional<String> check(Actor actor, DeclarativeRule rule);

    /**
     * Why a condition alone does not compile (its line, column and, for an unknown field, the fields that exist),
     * or empty: what an editor checks as the person types, before the rest of the rule is complete.
     */
    Optional<String> checkCondition(Actor actor, String condition);

    /** True when the rule's condition (which must compile) reads {@code history}: it is asked only at execution. */
    boolean readsHistory(DeclarativeRule rule);

    /**
     * Saves a rule, new or changed, with its note. A deny rule that would have refused every call recorded in the
     * last seven days is refused ({@link RuleResult.RefusesEverything}) unless {@code force}.
     */
    RuleResult save(Actor actor, DeclarativeRule rule, boolean force);

    /** Removes a rule, the note saying why. */
    RuleResult remove(Actor actor, String identifier, String note);

    /** Evaluates the rule over the calls recorded in the runs updated since then, which have not been purged. */
    WhatIf whatIf(Actor actor, DeclarativeRule rule, Instant since);

    /**
     * What the rule (which must compile) does to one call, judged as the what-if judges a recorded call: the tool's
     * server, effect and data class as registered now, the person's roles as they are now, the agent's trust zone
     * from its stored configuration.
     */
    RuleTrial trial(Actor actor, DeclarativeRule rule, RecordedCall call);

    /** A saved rule and how many of the last seven days' recorded calls it matches. */
    record RuleSummary(DeclarativeRule rule, int hits) {
    }
}
