package io.countersign.console.notify;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Messages;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** What a notification says: who and what waits, how long is left, and nothing of the calls themselves. */
class NoticeTextTest {
    private final Messages messages = Messages.forLocale(Locale.ENGLISH);

    @Test
    void aWaitingApprovalNamesItsToolsAgentAndInitiator() {
        ShownNotice shown = NoticeText.of(new Notice("run-1", Notice.Reason.WAITING, false, "release-notes",
                List.of("fs_write", "fs_delete"), "maria", null), messages);

        assertThat(shown).isEqualTo(new ShownNotice("run-1", "Approval waiting: fs_write, fs_delete",
                "release-notes · started by maria", false));
    }

    @Test
    void anInputPauseWithADeadlineSaysHowLongIsLeft() {
        ShownNotice shown = NoticeText.of(new Notice("run-2", Notice.Reason.WAITING, true, "intake",
                List.of("intake_form"), "jonas", "4m 09s"), messages);

        assertThat(shown.summary()).isEqualTo("Input waiting: intake_form");
        assertThat(shown.body()).isEqualTo("intake · started by jonas · 4m 09s left");
    }

    @Test
    void anEscalationAndANearDeadlineAreUrgent() {
        ShownNotice escalated = NoticeText.of(new Notice("run-3", Notice.Reason.ESCALATED, false, "ops",
                List.of("shell"), null, "30m 00s"), messages);
        ShownNotice near = NoticeText.of(new Notice("run-3", Notice.Reason.DEADLINE_NEAR, false, "ops",
                List.of("shell"), "maria", "45s"), messages);

        assertThat(escalated).isEqualTo(new ShownNotice("run-3", "Escalated to you: shell", "ops · 30m 00s left",
                true));
        assertThat(near.summary()).isEqualTo("45s left: shell");
        assertThat(near.urgent()).isTrue();
    }

    @Test
    void manyToolsAreNamedUpToThreeAndNoneAsACall() {
        ShownNotice many = NoticeText.of(new Notice("run-4", Notice.Reason.WAITING, false, "ops",
                List.of("a", "b", "c", "d", "e"), "maria", null), messages);
        ShownNotice none = NoticeText.of(new Notice("run-5", Notice.Reason.WAITING, false, "ops", List.of(),
                "maria", null), messages);

        assertThat(many.summary()).isEqualTo("Approval waiting: a, b, c and 2 more");
        assertThat(none.summary()).isEqualTo("Approval waiting: a call");
    }
}
