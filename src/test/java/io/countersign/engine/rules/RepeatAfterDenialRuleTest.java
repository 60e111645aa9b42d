package io.countersign.engine.rules;

import static io.countersign.engine.InvocationCalls.agent;
import static io.countersign.engine.InvocationCalls.arguments;
import static io.countersign.engine.InvocationCalls.call;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.call.InvocationVerdict;
import io.countersign.engine.call.ToolInvocationDecision;
import io.countersign.engine.call.ToolInvocationHistory;
import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.call.ToolInvocationObservation.Outcome;
import io.countersign.engine.call.ToolInvocationTarget;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.invocation.PreApprovalInvocationRule;
import io.countersign.engine.invocation.ToolInvocationContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class RepeatAfterDenialRuleTest {
    private static final ToolInvocationTarget DRAFT = new ToolInvocationTarget("file", "draft.md");
    private static final ToolInvocationHistory DRAFT_WRITE_DENIED = ToolInvocationHistory.emptyComplete()
            .with(new ToolInvocationObservation("fs_read", Outcome.OK, DRAFT))
            .with(new ToolInvocationObservation("fs_write", Outcome.DENIED, DRAFT));
    private final RepeatAfterDenialRule rule = new RepeatAfterDenialRule();

    private static ToolInvocationContext callOn(String tool, ToolInvocationTarget target,
                                                ToolInvocationHistory history, Locale locale) {
        ToolInvocationContext call = call(tool, arguments(), agent(), history, locale);
        return new ToolInvocationContext(tool, call.arguments(), call.configuration(), target,
                call.executionContext(), history);
    }

    private ToolInvocationDecision decide(String tool, ToolInvocationTarget target, ToolInvocationHistory history) {
        return rule.decide(callOn(tool, target, history, Locale.ENGLISH));
    }

    @Test
    void callDeniedEarlierInTheRunIsRefused() {
        assertThat(decide("fs_write", DRAFT, DRAFT_WRITE_DENIED).reasonCode()).isEqualTo("repeated_after_denial");
    }

    @Test
    void explanationNamesTheTarget() {
        assertThat(decide("fs_write", DRAFT, DRAFT_WRITE_DENIED).explanation())
                .isEqualTo("Choose a different step: this call on \"draft.md\" was already refused in this run.");
    }

    @Test
    void explanationIsInThePersonsLanguage() {
        assertThat(rule.decide(callOn("fs_write", DRAFT, DRAFT_WRITE_DENIED, Locale.GERMAN)).explanation())
                .isEqualTo("Wählen Sie einen anderen Schritt: Dieser Aufruf für „draft.md“ wurde in diesem Lauf "
                        + "bereits abgelehnt.");
    }

    @Test
    void sameTargetWithAnotherToolIsAllowed() {
        assertThat(decide("fs_delete", DRAFT, DRAFT_WRITE_DENIED).allowed()).isTrue();
    }

    @Test
    void sameToolOnAnotherTargetIsAllowed() {
        assertThat(decide("fs_write", new ToolInvocationTarget("file", "notes.md"), DRAFT_WRITE_DENIED).allowed())
                .isTrue();
    }

    @Test
    void sameIdentifierOfAnotherKindIsAllowed() {
        assertThat(decide("fs_write", new ToolInvocationTarget("host", "draft.md"), DRAFT_WRITE_DENIED).allowed())
                .isTrue();
    }

    @ParameterizedTest
    @EnumSource(value = Outcome.class, names = "DENIED", mode = EnumSource.Mode.EXCLUDE)
    void callThatWasNotDeniedMayBeRepeated(Outcome outcome) {
        ToolInvocationHistory history = ToolInvocationHistory.emptyComplete()
                .with(new ToolInvocationObservation("fs_write", outcome, DRAFT));

        assertThat(decide("fs_write", DRAFT, history).allowed()).isTrue();
    }

    @Test
    void callWithoutATargetIsAllowed() {
        ToolInvocationHistory history = ToolInvocationHistory.emptyComplete()
                .with(new ToolInvocationObservation("web_fetch", Outcome.DENIED, null));

        assertThat(decide("web_fetch", null, history).allowed()).isTrue();
    }

    @Test
    void runThatCannotProveItsHistoryIsRefusedWithoutAskingTheRule() {
        InvocationVerdict verdict = InvocationRules.of(List.of(rule), List.of()).invocationPolicy()
                .evaluate(callOn("fs_write", DRAFT, ToolInvocationHistory.incomplete(List.of()), Locale.ENGLISH));

        assertThat(verdict.ruleIdentifier()).isEqualTo("repeat.after.denial");
        assertThat(verdict.decision().reasonCode()).isEqualTo(InvocationVerdict.HISTORY_INCOMPLETE);
    }

    @Test
    void isNotAskedBeforeTheApprovalCard() {
        assertThat(rule).isNotInstanceOf(PreApprovalInvocationRule.class);
    }

    @Test
    void repeatIsCaughtHoweverThePathIsSpelled(@TempDir Path root) throws IOException {
        Path workspace = Files.createDirectories(root.resolve("release-notes").resolve("chapters")).getParent();
        ToolInvocationHistory history = ToolInvocationHistory.emptyComplete()
                .with(new ToolInvocationObservation("fs_write", Outcome.DENIED, DRAFT));
        ToolInvocationContext respelled = call("fs_write", arguments("path", workspace + "/chapters/../draft.md"),
                agent().withWorkspace(workspace.toString()), history, Locale.ENGLISH);

        InvocationVerdict verdict = InvocationRules.discover(List.of(), List.of()).invocationPolicy()
                .evaluate(respelled);

        assertThat(verdict.ruleIdentifier()).isEqualTo("repeat.after.denial");
        assertThat(verdict.target()).isEqualTo(DRAFT);
    }
}
