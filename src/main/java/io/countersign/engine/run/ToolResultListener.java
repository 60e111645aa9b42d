package io.countersign.engine.run;

import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.tool.ToolResult;

/**
 * Told of each result a tool gave the loop, whole, as the call executes: a caller that answers someone other than
 * the model (a gateway's host) can pass on more than the text the transcript keeps.
 */
@FunctionalInterface
public interface ToolResultListener {
    ToolResultListener NONE = (call, result, note) -> { };

    /**
     * {@code call} executed and gave {@code result}; called on the loop's thread, so it must return quickly.
     *
     * @param note what the transcript adds after the result for the model (a person changed the call's arguments
     *             before approving it), or null
     */
    void executed(ToolCall call, ToolResult result, String note);
}
