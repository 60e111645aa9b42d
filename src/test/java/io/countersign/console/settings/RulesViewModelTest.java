package io.countersign.console.settings;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Messages;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.declarative.DeclarativeRule;
import io.countersign.service.RuleService;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The rule editor's own checks: what it refuses before it asks the service anything. */
class RulesViewModelTest {

    /** What the editor handed to its executor: the service calls it asked for. */
    private final List<Runnable> asked = new ArrayList<>();

    private RulesViewModel editor() {
        RuleService none = (RuleService) Proxy.newProxyInstance(RuleService.class.getClassLoader(),
                new Class<?>[] {RuleService.class}, (proxy, method, arguments) -> {
                    throw new AssertionError("a view-model test called the service: " + method.getName());
                });
        return new RulesViewModel(none, Actor.of("root", Role.ADMIN), asked::add, Messages.forLocale(Locale.ENGLISH),
                Clock.systemUTC(), runId -> {
                });
    }

    @Test
    void aDenyRuleWithoutItsExplanationIsNotOfferedForANote() {
        RulesViewModel editor = editor();
        editor.identifierProperty().set("releases.keep");
        editor.conditionProperty().set("tool == 'fs_delete'");
        editor.reasonProperty().set("release_kept");
        editor.askNote();
        assertThat(editor.noteAskedProperty().get()).isFalse();
        assertThat(editor.feedback().problemProperty().get())
                .isEqualTo("a deny rule needs a one-sentence explanation (--explain) for the person behind the run");
        assertThat(asked).isEmpty();
    }

    @Test
    void saveWithoutANoteAsksForOne() {
        RulesViewModel editor = editor();
        editor.edit(new DeclarativeRule("write.large", "tool == 'fs_write'", new DeclarativeRule.Action.Ask(2),
                new DeclarativeRule.Scope(Set.of("writer"), Set.of()), true, "big writes"));
        // opening a saved rule type-checks its condition; saving without a note asks nothing more
        assertThat(asked).hasSize(1);
        editor.save();
        assertThat(editor.feedback().problemProperty().get()).isEqualTo("Write a note that says why, then save.");
        assertThat(asked).hasSize(1);
    }

    @Test
    void saveWhileTheConditionIsBeingCheckedWaitsForThatCheckWithoutAskingAnother() {
        RulesViewModel editor = editor();
        editor.edit(new DeclarativeRule("write.large", "tool == 'fs_write'", new DeclarativeRule.Action.Ask(2),
                DeclarativeRule.Scope.ALL, true, ""));
        editor.askNote();
        assertThat(editor.saveWaitingProperty().get()).isTrue();
        assertThat(editor.noteAskedProperty().get()).isFalse();
        assertThat(asked).hasSize(1);
        editor.closeNote();
        assertThat(editor.saveWaitingProperty().get()).isFalse();
    }

    @Test
    void aSavedRuleFillsTheEditorAndNewRuleEmptiesIt() {
        RulesViewModel editor = editor();
        editor.edit(new DeclarativeRule("write.large", "tool == 'fs_write'", new DeclarativeRule.Action.Ask(2),
                new DeclarativeRule.Scope(Set.of("writer", "editor"), Set.of("desk")), false, ""));
        assertThat(editor.denyProperty().get()).isFalse();
        assertThat(editor.approvalsProperty().get()).isEqualTo(2);
        assertThat(editor.agentsProperty().get()).isEqualTo("editor, writer");
        assertThat(editor.profilesProperty().get()).isEqualTo("desk");
        assertThat(editor.enabledProperty().get()).isFalse();

        editor.startNew();
        assertThat(editor.identifierProperty().get()).isEmpty();
        assertThat(editor.denyProperty().get()).isTrue();
        assertThat(editor.enabledProperty().get()).isTrue();
        assertThat(editor.agentsProperty().get()).isEmpty();
    }
}
