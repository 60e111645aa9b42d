package io.countersign.console.notify;

import io.countersign.console.common.Messages;
import java.util.List;

/** What a notification of a notice says, in the console's language: a summary line and a body line. */
final class NoticeText {
    /** Tools named before "and N more". */
    private static final int TOOLS_NAMED = 3;

    private NoticeText() {
    }

    static ShownNotice of(Notice notice, Messages messages) {
        String tools = tools(notice.tools(), messages);
        String summary = switch (notice.reason()) {
            case WAITING -> messages.get(notice.input() ? "notice.waiting.input" : "notice.waiting.approval", tools);
            case ESCALATED -> messages.get("notice.escalated", tools);
            case DEADLINE_NEAR -> messages.get("notice.deadlineNear", notice.left(), tools);
        };
        String body = notice.initiator() == null || notice.initiator().isBlank()
                ? messages.get("notice.body.agent", notice.agent())
                : messages.get("notice.body", notice.agent(), notice.initiator());
        if (notice.left() != null) {
            body = messages.get("notice.body.left", body, notice.left());
        }
        return new ShownNotice(notice.runId(), summary, body, notice.reason() != Notice.Reason.WAITING);
    }

    private static String tools(List<String> tools, Messages messages) {
        if (tools.isEmpty()) {
            return messages.get("notice.tools.none");
        }
        if (tools.size() <= TOOLS_NAMED) {
            return String.join(", ", tools);
        }
        return messages.get("notice.tools.more", String.join(", ", tools.subList(0, TOOLS_NAMED)),
                tools.size() - TOOLS_NAMED);
    }
}
