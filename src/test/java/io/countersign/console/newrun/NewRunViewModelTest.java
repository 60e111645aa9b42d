package io.countersign.console.newrun;

import static io.countersign.console.ConsoleFixtures.noService;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Messages;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.service.AgentSummary;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class NewRunViewModelTest {
    private static final AgentSummary SCRIPTED = new AgentSummary("release-notes-bot", "scripted", "local",
            List.of("files"), false, true);

    private static NewRunViewModel form(Actor actor) {
        return new NewRunViewModel(noService(), actor, work -> {
        }, Messages.forLocale(Locale.ENGLISH));
    }

    @Test
    void theFormSaysWhatItStillNeeds() {
        NewRunViewModel form = form(Actor.of("maria", Role.OPERATOR));
        String empty = form.missingProperty().get();
        form.agentProperty().set(SCRIPTED);
        String withAgent = form.missingProperty().get();
        form.promptProperty().set("   ");
        String blankPrompt = form.missingProperty().get();
        form.promptProperty().set("Tidy the release notes");

        assertThat(List.of(empty, withAgent, blankPrompt))
                .containsExactly("Pick an agent.", "Type a prompt.", "Type a prompt.");
        assertThat(form.missingProperty().get()).isEmpty();
        assertThat(form.canStartProperty().get()).isTrue();
    }

    @Test
    void aSupervisorCannotStartRuns() {
        NewRunViewModel form = form(Actor.of("sam", Role.SUPERVISOR));
        form.agentProperty().set(SCRIPTED);
        form.promptProperty().set("Tidy the release notes");

        assertThat(form.canStartProperty().get()).isFalse();
        assertThat(form.missingProperty().get()).isEqualTo("Starting runs needs the operator role.");
    }

    @Test
    void aScriptedAgentSaysSo() {
        NewRunViewModel form = form(Actor.of("maria", Role.OPERATOR));

        form.agentProperty().set(SCRIPTED);

        assertThat(form.agentDetailsProperty().get())
                .isEqualTo("model scripted · trust zone local · tools: files\n"
                        + "Scripted: this agent follows a fixed script, no real model answers.");
    }
}
