package io.countersign.engine.port;

import io.countersign.engine.declarative.DeclarativeRule;
import java.util.List;

/** Port: the declarative rules saved now, in identifier order. */
@FunctionalInterface
public interface DeclarativeRuleSource {
    DeclarativeRuleSource NONE = List::of;

    /** The rules; the same list instance until they change, so a reader compiles them once per change. */
    List<DeclarativeRule> declarativeRules();
}
