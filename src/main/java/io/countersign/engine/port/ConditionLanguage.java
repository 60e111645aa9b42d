package io.countersign.engine.port;

import io.countersign.engine.declarative.CallFacts;

/**
 * Port: the language declarative rules write their conditions in (CEL). A condition is compiled once, when its
 * rule is saved or loaded, and evaluated for each call against the facts bound once per call.
 */
public interface ConditionLanguage {

    /** Parses and type-checks a condition, which must be true or false for every call. */
    Compilation compile(String source);

    /** The facts of one call in the form the conditions read them; bound once and shared by every rule. */
    Bindings bind(CallFacts facts);

    /** The outcome of compiling a condition. */
    sealed interface Compilation {
        /**
         * A condition that type-checks; {@code readsHistory} when it refers to {@code history}; {@code tool} the
         * tool it is about when it is a conjunction with {@code tool == 'NAME'} (false for every other tool, so it
         * need not be asked about them), else {@code null}.
         */
        record Compiled(Condition condition, boolean readsHistory, String tool) implements Compilation {
        }

        /**
         * A condition that does not parse or type-check: where (line and column, from 1) and why, in one sentence
         * that names the fields that exist when it used one that does not.
         */
        record Invalid(int line, int column, String message) implements Compilation {
            /** The whole error on one line, as a command prints it. */
            public String sentence() {
                return "line " + line + ", column " + column + ": " + message;
            }
        }
    }

    /** A compiled condition. */
    @FunctionalInterface
    interface Condition {
        /**
         * Whether the call matches.
         *
         * @throws ConditionFailedException when the condition cannot be evaluated for this call (a missing key, a
         *                                  value of the wrong type): the rule failed, it did not answer
         */
        boolean matches(Bindings call);
    }

    /** One call's facts, bound for a condition. */
    interface Bindings {
        CallFacts facts();
    }

    /** A condition could not be evaluated for a call; its text never leaves the process. */
    final class ConditionFailedException extends RuntimeException {
        public ConditionFailedException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
