package io.countersign.console.input;

import static io.countersign.console.ConsoleFixtures.NOW;
import static io.countersign.console.ConsoleFixtures.inputCard;
import static io.countersign.console.ConsoleFixtures.noService;
import static org.assertj.core.api.Assertions.assertThat;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.console.MovableClock;
import io.countersign.console.card.CardDone;
import io.countersign.console.card.CardSession;
import io.countersign.console.common.ConnectionState;
import io.countersign.console.common.LiveClock;
import io.countersign.console.common.Messages;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.InputValidation.FieldError;
import io.countersign.tools.NetworkntSchemaValidator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InputCardViewModelTest {
    private final InputCardViewModel form = new InputCardViewModel(new CardSession(noService(),
            Actor.of("jonas", Role.OPERATOR), work -> {
            }, new LiveClock(new MovableClock(NOW)), Messages.forLocale(Locale.ENGLISH), new ConnectionState()),
            new NetworkntSchemaValidator());

    private InputFieldItem field(String name) {
        return form.fields().stream().filter(item -> item.field().name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void theModelsGuessIsAHintNeverAValue() {
        form.show(inputCard("run-1", Map.of("company", "ACME GmbH")));

        assertThat(field("company").guess()).isEqualTo("ACME GmbH");
        assertThat(field("company").textProperty().get()).isEmpty();
        assertThat(form.values().has("company")).isFalse();
    }

    @Test
    void valuesAreSentAsTheirFieldsTypes() {
        form.show(inputCard("run-1", Map.of()));
        field("company").textProperty().set(" ACME ");
        field("employees").textProperty().set("12");
        field("budget").textProperty().set("2.5");
        field("urgent").checkedProperty().set(true);
        field("country").choiceProperty().set("France");

        ObjectNode values = form.values();

        assertThat(values.get("company").textValue()).isEqualTo("ACME");
        assertThat(values.get("employees").isIntegralNumber()).isTrue();
        assertThat(values.get("employees").intValue()).isEqualTo(12);
        assertThat(values.get("budget").decimalValue()).isEqualByComparingTo("2.5");
        assertThat(values.get("urgent").booleanValue()).isTrue();
        assertThat(values.get("country").textValue()).isEqualTo("France");
    }

    @Test
    void aNumberThatDoesNotParseGoesAsTextSoTheCheckCanNameIt() {
        form.show(inputCard("run-1", Map.of()));
        field("employees").textProperty().set("a dozen");

        assertThat(form.values().get("employees").asText()).isEqualTo("a dozen");
    }

    @Test
    void missingRequiredFieldsAreCaughtBeforeAnythingIsSent() {
        form.show(inputCard("run-1", Map.of()));
        field("employees").textProperty().set("12");

        form.submit();

        assertThat(field("company").errorProperty().get()).isEqualTo("argument \"company\": is required");
        assertThat(field("employees").errorProperty().get()).isEmpty();
        assertThat(form.firstErrorProperty().get()).isSameAs(field("company"));
    }

    @Test
    void invalidInputGoesUnderItsFieldsTheFirstIsFocusedAndTypedValuesStay() {
        form.show(inputCard("run-1", Map.of()));
        field("company").textProperty().set("ACME");
        field("employees").textProperty().set("2.5");

        form.apply(new DecisionResult.InvalidInput("run-1", List.of(
                new FieldError("employees", "Employees must be a whole number"),
                new FieldError("country", "Country must be one of Germany, France"))));

        assertThat(field("employees").errorProperty().get()).isEqualTo("Employees must be a whole number");
        assertThat(field("country").errorProperty().get()).isEqualTo("Country must be one of Germany, France");
        assertThat(form.firstErrorProperty().get()).isSameAs(field("employees"));
        assertThat(field("company").textProperty().get()).isEqualTo("ACME");
        assertThat(field("employees").textProperty().get()).isEqualTo("2.5");
    }

    @Test
    void aValueIsCheckedAgainstItsSchemaAsItIsTypedAndAnEmptyFieldIsNotBlamedUntilSent() {
        form.show(inputCard("run-1", Map.of()));

        field("employees").textProperty().set("0");
        assertThat(field("employees").errorProperty().get()).isEqualTo("argument \"employees\": must be at least 1");
        field("employees").textProperty().set("ten");
        assertThat(field("employees").errorProperty().get())
                .isEqualTo("argument \"employees\": must be an integer, got \"ten\"");
        field("employees").textProperty().set("");
        assertThat(field("employees").errorProperty().get()).isEmpty();
    }

    @Test
    void changingAValueClearsItsError() {
        form.show(inputCard("run-1", Map.of()));
        form.apply(new DecisionResult.InvalidInput("run-1",
                List.of(new FieldError("employees", "Employees must be a whole number"))));

        field("employees").textProperty().set("3");

        assertThat(field("employees").errorProperty().get()).isEmpty();
    }

    @Test
    void anErrorForAFieldTheFormDoesNotHaveGoesOnTop() {
        form.show(inputCard("run-1", Map.of()));

        form.apply(new DecisionResult.InvalidInput("run-1", List.of(new FieldError("color", "Color is required"))));

        assertThat(form.session().bannerProperty().get().text()).isEqualTo("The input was not taken: Color is required");
    }

    @Test
    void takenInputHandsTheCardOn() {
        form.show(inputCard("run-1", Map.of()));
        List<CardDone> done = new ArrayList<>();
        form.setOnDone(done::add);

        form.apply(new DecisionResult.Done("run-1", RunStatus.COMPLETED, 0, 0));

        assertThat(done).singleElement().extracting(CardDone::input, CardDone::agent)
                .containsExactly(true, "intake-form");
    }
}
