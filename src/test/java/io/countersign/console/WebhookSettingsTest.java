package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import io.countersign.console.main.Section;
import io.countersign.console.settings.WebhookRow;
import io.countersign.engine.Actor;
import io.countersign.engine.webhook.HookStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.control.TitledPane;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.testfx.api.FxRobot;

/** The webhooks part of the settings screen over the real webhook service and store, as an admin uses it. */
class WebhookSettingsTest extends ConsoleRobotTest {
    private Actor admin;
    private MockWebServer receiver;

    @BeforeEach
    void receiver() throws Exception {
        receiver = closedAfterTheConsole(new MockWebServer());
        receiver.start();
    }

    private ConsoleWindow openWebhooks(FxRobot robot, Theme theme, WindowSize size) {
        console = RealConsole.withDemo(folder);
        admin = console.admin();
        ConsoleWindow window = console.open(robot, stage, admin, theme);
        size.apply(robot, stage);
        await(() -> window.viewModel().inbox().allRuns().size() == 3);
        ToolSettingsTest.openSection(robot, Section.SETTINGS);
        robot.clickOn(robot.lookup(".webhooks-pane > .title").<Node>query());
        await(() -> robot.lookup("#webhooksPane").queryAs(TitledPane.class).isExpanded()
                && robot.lookup("#hookUrl").query().isVisible());
        return window;
    }

    /** Closes the pane and opens it again, as a person does to see it read anew. */
    private static void reopen(FxRobot robot) {
        robot.clickOn(robot.lookup(".webhooks-pane > .title").<Node>query());
        await(() -> !robot.lookup("#webhooksPane").queryAs(TitledPane.class).isExpanded());
        robot.clickOn(robot.lookup(".webhooks-pane > .title").<Node>query());
        await(() -> robot.lookup("#webhooksPane").queryAs(TitledPane.class).isExpanded());
    }

    @SuppressWarnings("unchecked")
    private static List<WebhookRow> rows(FxRobot robot) {
        return onFx(() -> List.copyOf(robot.lookup("#webhookTable").queryAs(TableView.class).getItems()));
    }

    private static String text(FxRobot robot, String selector) {
        return onFx(() -> robot.lookup(selector).queryAs(Label.class).getText());
    }

    private List<HookStatus> stored() {
        return console.runtime().webhooks().list(admin);
    }

    private void addHook(FxRobot robot, String url, String secret) {
        robot.clickOn("#hookUrl").write(url);
        robot.clickOn("#hookSecret").write(secret);
        robot.clickOn("#addHook");
    }

    @Test
    void anAdminAddsAHookWithTheEventsPickedAndSeesItsLastDelivery(FxRobot robot) throws Exception {
        openWebhooks(robot, Theme.LIGHT, WindowSize.SMALLEST);
        Path secret = Files.writeString(folder.resolve("hook-secret"), "shared-secret\n");
        robot.clickOn("#hookDecided");
        addHook(robot, receiver.url("/hook").toString(), "file:" + secret);

        await(() -> rows(robot).size() == 1);
        assertThat(stored()).singleElement().satisfies(status -> {
            assertThat(status.hook().eventList()).isEqualTo("waiting,decided,escalated");
            assertThat(status.hook().secret().toString()).isEqualTo("file:" + secret);
            assertThat(status.hook().slack()).isFalse();
        });
        assertThat(rows(robot).get(0).lastDelivery()).isEqualTo("never tried");
        assertThat(text(robot, "#hookStatus")).startsWith("Webhook wh-").endsWith("was added: events go to "
                + receiver.url("/hook") + ".");
        assertThat(onFx(() -> robot.lookup("#hookUrl").queryTextInputControl().getText())).isEmpty();

        // a card starts waiting; this process delivers its event, and the pane shows how it went when reopened
        receiver.enqueue(new MockResponse.Builder().code(200).build());
        console.runtime().runs().start(console.user("jonas"), "web-research", "Check the changelog", false);
        assertThat(console.runtime().webhooks().deliverDue()).isEqualTo(1);
        reopen(robot);
        await(() -> rows(robot).size() == 1 && rows(robot).get(0).lastDelivery().equals("delivered (200)"));
        assertThat(rows(robot).get(0).queue()).isEqualTo("0 to send");
    }

    @Test
    void aSecretTypedAsAValueIsRefusedUnderTheFormAndNothingIsStored(FxRobot robot) {
        openWebhooks(robot, Theme.LIGHT, WindowSize.SMALLEST);
        addHook(robot, "https://hooks.example.org/countersign", "hunter2");
        await(() -> !text(robot, "#hookFormError").isEmpty());
        assertThat(text(robot, "#hookFormError")).isEqualTo("a webhook secret is given as a reference, env:NAME or"
                + " file:PATH, never as the value itself; the store keeps only the reference");
        assertThat(stored()).isEmpty();

        robot.clickOn("#hookWaiting").clickOn("#hookEscalated");
        robot.clickOn("#addHook");
        await(() -> text(robot, "#hookFormError").equals("Pick at least one event."));
        assertThat(stored()).isEmpty();
    }

    @Test
    void removeTakesTheHookAwayFromTheStore(FxRobot robot) {
        openWebhooks(robot, Theme.LIGHT, WindowSize.AS_OPENED);
        addHook(robot, "https://hooks.example.org/one", "env:ONE_SECRET");
        await(() -> rows(robot).size() == 1);
        robot.clickOn("#hookUrl").write("https://hooks.example.org/two");
        robot.clickOn("#hookSecret").write("env:TWO_SECRET");
        robot.clickOn("#hookSlack").clickOn("#addHook");
        await(() -> rows(robot).size() == 2);
        String two = stored().get(1).hook().id();
        assertThat(stored().get(1).hook().slack()).isTrue();

        robot.clickOn(robot.lookup(".remove-hook").match(node -> two.equals(node.getUserData())).<Node>query());
        await(() -> rows(robot).size() == 1);
        assertThat(stored()).singleElement().satisfies(status ->
                assertThat(status.hook().url().toString()).isEqualTo("https://hooks.example.org/one"));
        assertThat(text(robot, "#hookStatus")).isEqualTo("Webhook " + two + " (https://hooks.example.org/two) was"
                + " removed, with the events still queued for it.");
    }

    @ParameterizedTest
    @EnumSource(Theme.class)
    void theWebhooksPaneIsPhotographed(Theme theme, FxRobot robot) throws Exception {
        ConsoleWindow window = openWebhooks(robot, theme, WindowSize.SMALLEST);
        Path secret = Files.writeString(folder.resolve("hook-secret"), "shared-secret\n");
        addHook(robot, receiver.url("/countersign").toString(), "file:" + secret);
        await(() -> rows(robot).size() == 1);
        robot.clickOn("#hookSlack");
        addHook(robot, "http://127.0.0.1:9/slack-gone", "env:SLACK_HOOK_SECRET_UNSET");
        await(() -> rows(robot).size() == 2);
        receiver.enqueue(new MockResponse.Builder().code(200).build());
        console.runtime().runs().start(console.user("jonas"), "web-research", "Check the changelog", false);
        console.runtime().webhooks().deliverDue();
        reopen(robot);
        await(() -> rows(robot).size() == 2 && rows(robot).get(1).lastDelivery().startsWith("failed"));
        String suffix = "-" + theme.name().toLowerCase(Locale.ROOT);
        Path shot = ScreenshotWriter.write(window.scene(), "settings-webhooks" + suffix);
        assertThat(Files.size(shot)).isGreaterThan(10_000);
    }
}
