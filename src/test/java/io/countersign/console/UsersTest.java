package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import io.countersign.console.main.Section;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import java.util.Locale;
import java.util.Set;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;

/** The users and roles screen over the real user service and store, as an admin uses it. */
class UsersTest extends ConsoleRobotTest {
    private Actor admin;

    @BeforeEach
    void open(FxRobot robot) {
        console = RealConsole.withDemo(folder);
        admin = console.admin();
        ConsoleWindow window = console.open(robot, stage, admin, Theme.LIGHT);
        await(() -> window.viewModel().inbox().allRuns().size() == 3);
        ToolSettingsTest.openSection(robot, Section.USERS);
        // the demo's store: its first user (the admin), jonas and maria
        await(() -> robot.lookup("#userTable").queryAs(TableView.class).getItems().size() == 3);
    }

    private static CheckBox roleBox(FxRobot robot, String user, Role role) {
        return onFx(() -> robot.lookup(".role-" + role.name().toLowerCase(Locale.ROOT))
                .queryAllAs(CheckBox.class).stream().filter(box -> user.equals(box.getUserData()))
                .findFirst().orElseThrow());
    }

    private static String text(FxRobot robot, String selector) {
        return onFx(() -> robot.lookup(selector).queryAs(Label.class).getText());
    }

    private Set<Role> stored(String user) {
        return console.runtime().store().users().find(user).orElseThrow().roles();
    }

    @Test
    void anAdminAddsAUserWithTheRolesPicked(FxRobot robot) {
        robot.clickOn("#newName").write("ana");
        robot.clickOn("#newOperator").clickOn("#newSupervisor");
        robot.clickOn("#add");

        await(() -> robot.lookup("#userTable").queryAs(TableView.class).getItems().size() == 4);
        assertThat(text(robot, "#status")).isEqualTo("ana was added as supervisor.");
        assertThat(stored("ana")).containsExactly(Role.SUPERVISOR);
        assertThat(roleBox(robot, "ana", Role.SUPERVISOR).isSelected()).isTrue();
        assertThat(robot.lookup("#newName").queryTextInputControl().getText()).isEmpty();
        // the form starts over for the next user: the roles picked for ana are not picked for them
        assertThat(onFx(() -> robot.lookup("#newOperator").queryAs(CheckBox.class).isSelected())).isTrue();
        assertThat(onFx(() -> robot.lookup("#newSupervisor").queryAs(CheckBox.class).isSelected())).isFalse();
    }

    @Test
    void aMissingNameAndNoRoleAreShownUnderTheirFields(FxRobot robot) {
        robot.clickOn("#newOperator");
        robot.clickOn("#add");

        assertThat(text(robot, "#nameError")).isEqualTo("Type the user’s name.");
        assertThat(text(robot, "#rolesError")).isEqualTo("Pick at least one role: a user without a role can do"
                + " nothing.");
        assertThat(console.guard().calls()).doesNotContain("add");
    }

    @Test
    void aTakenNameIsShownUnderTheName(FxRobot robot) {
        robot.clickOn("#newName").write("maria");
        robot.clickOn("#add");

        await(() -> !text(robot, "#nameError").isEmpty());
        assertThat(text(robot, "#nameError")).isEqualTo("there already is a user named \"maria\"");
        assertThat(stored("maria")).containsExactly(Role.OPERATOR);
    }

    @Test
    void aNameTheStoreWillNotTakeIsShownUnderTheName(FxRobot robot) {
        robot.clickOn("#newName").write(" ana");
        robot.clickOn("#add");

        await(() -> !text(robot, "#nameError").isEmpty());
        assertThat(text(robot, "#nameError")).startsWith("a user name is 1 to 128 characters without control"
                + " characters or surrounding spaces");
    }

    @Test
    void aClickOnARoleChangesItAtOnce(FxRobot robot) {
        robot.clickOn(roleBox(robot, "maria", Role.SUPERVISOR));

        await(() -> stored("maria").equals(Set.of(Role.OPERATOR, Role.SUPERVISOR))
                && !text(robot, "#status").isEmpty());
        assertThat(text(robot, "#status")).isEqualTo("The roles of maria changed: operator → operator, supervisor.");
    }

    @Test
    void aWorkersLoginIsAddedWithTheWorkerRoleAloneAtTheSmallestWindow(FxRobot robot) {
        robot.interact(() -> {
            stage.setWidth(1024);
            stage.setHeight(700);
        });
        await(() -> stage.getScene().getWidth() == 1024);
        robot.clickOn("#newName").write("wendy");
        // the form starts with operator: a click takes it, another gives worker
        robot.clickOn("#newOperator").clickOn("#newWorker");
        robot.clickOn("#add");

        await(() -> rows(robot) == 4 && !text(robot, "#status").isEmpty());
        assertThat(text(robot, "#status")).isEqualTo("wendy was added as worker.");
        assertThat(stored("wendy")).containsExactly(Role.WORKER);
        assertThat(roleBox(robot, "wendy", Role.WORKER).isSelected()).isTrue();
        assertThat(roleBox(robot, "wendy", Role.OPERATOR).isSelected()).isFalse();
        assertThat(onFx(() -> robot.lookup(".column-header .label").queryAllAs(Label.class).stream()
                .map(Label::getText).toList())).containsSubsequence("Operator", "Supervisor", "Admin", "Worker");
        assertThat(onFx(() -> LayoutCheck.clipped(stage.getScene()))).as("controls cut at 1024×700").isEmpty();
        ScreenshotWriter.write(stage.getScene(), "users-worker-1024x700");
    }

    @Test
    void aClickInTheWorkerColumnGivesTheWorkerRoleAtOnce(FxRobot robot) {
        robot.clickOn(roleBox(robot, "maria", Role.WORKER));

        await(() -> stored("maria").equals(Set.of(Role.OPERATOR, Role.WORKER)) && !text(robot, "#status").isEmpty());
        assertThat(text(robot, "#status")).isEqualTo("The roles of maria changed: operator → operator, worker.");
    }

    @Test
    void theLastAdminCannotTakeTheirOwnAdminRole(FxRobot robot) {
        robot.clickOn(roleBox(robot, admin.name(), Role.ADMIN));

        await(() -> !text(robot, "#problem").isEmpty() && !roleBox(robot, admin.name(), Role.ADMIN).isDisabled());
        assertThat(text(robot, "#problem")).isEqualTo("Cannot take the admin role from " + admin.name()
                + ": they are the last admin; make another user admin first.");
        assertThat(roleBox(robot, admin.name(), Role.ADMIN).isSelected()).isTrue();
        assertThat(stored(admin.name())).contains(Role.ADMIN);
    }

    private static Button removeButton(FxRobot robot, String user) {
        return onFx(() -> robot.lookup(".remove-user").queryAllAs(Button.class).stream()
                .filter(button -> user.equals(button.getUserData())).findFirst().orElseThrow());
    }

    private static int rows(FxRobot robot) {
        return onFx(() -> robot.lookup("#userTable").queryAs(TableView.class).getItems().size());
    }

    @Test
    void removeAsksFirstThenTheUserIsGoneWithTheirRoles(FxRobot robot) {
        robot.clickOn(removeButton(robot, "maria"));
        await(() -> robot.lookup("#confirmRemove").tryQuery().isPresent());
        assertThat(onFx(() -> robot.lookup(".dialog-pane .header-panel .label").queryAs(Label.class).getText()))
                .isEqualTo("Remove maria?");
        robot.clickOn("#confirmRemove");

        await(() -> rows(robot) == 2 && !text(robot, "#status").isEmpty());
        assertThat(text(robot, "#status")).isEqualTo("maria was removed; their decisions and events keep their name.");
        assertThat(console.runtime().store().users().find("maria")).isEmpty();
    }

    @Test
    void escapeInTheConfirmationKeepsTheUser(FxRobot robot) {
        robot.clickOn(removeButton(robot, "maria"));
        await(() -> robot.lookup("#confirmRemove").tryQuery().isPresent());
        robot.type(KeyCode.ESCAPE);

        await(() -> robot.lookup("#confirmRemove").tryQuery().isEmpty());
        assertThat(stored("maria")).containsExactly(Role.OPERATOR);
        assertThat(rows(robot)).isEqualTo(3);
        assertThat(console.guard().calls()).doesNotContain("remove");
    }

    @Test
    void theLastAdminCannotBeRemovedAndIsToldWhy(FxRobot robot) {
        robot.clickOn(removeButton(robot, admin.name()));
        await(() -> robot.lookup("#confirmRemove").tryQuery().isPresent());
        robot.clickOn("#confirmRemove");

        await(() -> !text(robot, "#problem").isEmpty());
        assertThat(text(robot, "#problem")).isEqualTo("Cannot remove " + admin.name()
                + ": they are the last admin; make another user admin first.");
        assertThat(stored(admin.name())).contains(Role.ADMIN);
        assertThat(rows(robot)).isEqualTo(3);
    }
}
