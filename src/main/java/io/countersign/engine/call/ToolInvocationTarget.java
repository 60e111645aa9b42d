package io.countersign.engine.call;

import io.countersign.engine.Names;

/**
 * The thing a call acts on, as a resolver names it: a kind ({@code file}, {@code host}) and an identifier.
 * Targets are stored in the invocation history, so they hold identifiers only, never credentials or content.
 */
public record ToolInvocationTarget(String kind, String identifier) {
    public static final int MAX_IDENTIFIER_LENGTH = 512;

    public ToolInvocationTarget {
        Names.requireCode(kind, "target kind");
        if (identifier == null || identifier.isBlank()) {
            throw new IllegalArgumentException("a target of kind \"" + kind + "\" needs a non-blank identifier");
        }
        if (identifier.length() > MAX_IDENTIFIER_LENGTH) {
            throw new IllegalArgumentException("a target identifier has at most " + MAX_IDENTIFIER_LENGTH
                    + " characters, got " + identifier.length());
        }
        if (identifier.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("a target identifier may not contain control characters");
        }
    }
}
