package io.countersign.engine.run;

import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.tool.CallerChannel;

/**
 * Who each call of a run was made for, when that caller can hear from the call while it executes (a gateway's
 * host); a model cannot, so by default every call's channel is {@link CallerChannel#NONE}.
 */
@FunctionalInterface
public interface CallerChannels {
    CallerChannels NONE = call -> CallerChannel.NONE;

    /** The channel back to the caller of {@code call}; asked on the loop's thread, so it must not block. */
    CallerChannel forCall(ToolCall call);
}
