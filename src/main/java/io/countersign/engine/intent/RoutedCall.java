package io.countersign.engine.intent;

import io.countersign.engine.chat.ToolCall;
import java.util.Objects;

/**
 * One emitted call after the POST seam: the call to dispatch, the call as the model emitted it, the intent
 * policy whose redirect applied to it, and whether the palette gate dropped a rewrite because its target was not
 * offered (then {@code call} is the emitted call).
 *
 * @param call                 the call to dispatch; it always keeps the emitted call's id
 * @param emitted              the call exactly as the model emitted it
 * @param policy               the name of the policy whose redirect applied, or {@code null} when none did
 * @param droppedByPaletteGate true when a rewrite named a tool that was not offered and was dropped
 */
public record RoutedCall(ToolCall call, ToolCall emitted, String policy, boolean droppedByPaletteGate) {
    public RoutedCall {
        Objects.requireNonNull(call, "call");
        Objects.requireNonNull(emitted, "emitted");
        if (!call.id().equals(emitted.id())) {
            throw new IllegalArgumentException("a routed call keeps the emitted call's id \"" + emitted.id()
                    + "\", got \"" + call.id() + "\"");
        }
    }

    /** The emitted call, dispatched as it is. */
    public static RoutedCall unchanged(ToolCall emitted) {
        return new RoutedCall(emitted, emitted, null, false);
    }
}
