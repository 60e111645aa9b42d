package io.countersign.engine.intent;

import io.countersign.engine.chat.ToolCall;

/**
 * The raw POST-model seam: sees each emitted call after the intent policies rewrote it, and returns the call to
 * dispatch (the given one to keep it).
 */
@FunctionalInterface
public interface ToolCallDispatchHook {

    /**
     * @param proposed the call after the intent policies (the emitted call when none applied)
     * @param emitted  the call exactly as the model emitted it
     */
    ToolCall onDispatch(ToolCall proposed, ToolCall emitted, DispatchContext context);
}
