package io.countersign.console.common;

import java.util.Objects;

/**
 * A message across the top of a screen: what happened and, where the person can do something about it,
 * whether a reload helps.
 */
public record Banner(Kind kind, String text, boolean reloadable) {
    public Banner {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(text, "text");
    }

    public static Banner info(String text) {
        return new Banner(Kind.INFO, text, false);
    }

    public static Banner warning(String text) {
        return new Banner(Kind.WARNING, text, false);
    }

    public static Banner danger(String text) {
        return new Banner(Kind.DANGER, text, false);
    }

    /** How a banner looks: information, something to act on, or a refusal. */
    public enum Kind {
        INFO,
        WARNING,
        DANGER
    }
}
