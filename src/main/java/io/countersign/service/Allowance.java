package io.countersign.service;

import io.countersign.engine.grant.GrantSpan;
import java.util.Objects;

/**
 * "Approve and allow": with an approval, a standing grant for each approved call, for the span given; for exactly
 * the call's arguments, or, when {@code folder} is given, for any call of the tool whose file lies in that folder
 * of the workspace.
 *
 * @param folder a folder inside the workspace ({@code docs}, or {@code .}), or {@code null} for the same arguments
 */
public record Allowance(GrantSpan span, String folder) {
    public Allowance {
        Objects.requireNonNull(span, "span");
        folder = folder == null || folder.isBlank() ? null : folder.strip();
    }

    /** A grant for exactly the approved calls' arguments. */
    public static Allowance sameArguments(GrantSpan span) {
        return new Allowance(span, null);
    }
}
