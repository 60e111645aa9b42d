package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.countersign.app.ConsoleLauncher;
import io.countersign.store.EmbeddedPostgresExtension;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.Optional;
import javafx.application.Application;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * A team store whose PostgreSQL login needs a password that no pgpass file or reference gives: the console asks
 * for it in the sign-in dialog, says when the server refuses it, and remembers the store and user, never the
 * password.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class SignInDialogTest {
    private static final String LOGIN = "lena";
    private static final String PASSWORD = "right-horse-staple";
    private static final String WRONG = "wrong-guess-17";

    @TempDir
    Path folder;
    private final FxRobot robot = new FxRobot();
    private Application application;
    private ConsoleLauncher.Opening opening;

    /** A login that must give its password: the embedded server trusts every other login. */
    @BeforeAll
    static void aLoginWithAPassword(EmbeddedPostgres postgres) throws Exception {
        try (Connection admin = postgres.getPostgresDatabase().getConnection();
             Statement statement = admin.createStatement()) {
            statement.execute("CREATE ROLE " + LOGIN + " LOGIN PASSWORD '" + PASSWORD + "'");
            statement.execute("CREATE SCHEMA sign_in AUTHORIZATION " + LOGIN);
            Path hba;
            try (ResultSet row = statement.executeQuery("SHOW hba_file")) {
                row.next();
                hba = Path.of(row.getString(1));
            }
            Files.writeString(hba, "host all " + LOGIN + " 127.0.0.1/32 scram-sha-256\n"
                    + "host all " + LOGIN + " ::1/128 scram-sha-256\n" + Files.readString(hba));
            statement.execute("SELECT pg_reload_conf()");
        }
    }

    @BeforeEach
    void stage() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    @AfterEach
    void close() throws Exception {
        if (application != null) {
            FxToolkit.cleanupApplication(application);
        }
        if (opening != null) {
            opening.close();
        }
    }

    @Test
    void aWrongPasswordIsOneSentenceTheRightOneOpensTheInboxAsTheLoginAndOnlyTheLoginIsRemembered(
            EmbeddedPostgres postgres) throws Exception {
        String url = "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres?currentSchema=sign_in";
        Map<String, String> environment = Map.of("HOME", folder.toString(),
                "XDG_CONFIG_HOME", folder.resolve("config").toString());
        start(url + "&user=" + LOGIN, environment);

        await(() -> field("#password").isPresent());
        WindowSize.SMALLEST.apply(robot, shownStage().orElseThrow());
        assertThat(field("#url").map(TextField::getText)).contains(url);
        assertThat(field("#user").map(TextField::getText)).contains(LOGIN);

        robot.clickOn("#password").write(WRONG).type(KeyCode.ENTER);
        await(() -> problem().filter(("PostgreSQL refused the login \"" + LOGIN + "\": the password is wrong.")
                ::equals).isPresent());
        assertThat(field("#password").map(TextField::getText)).contains("");
        ScreenshotWriter.write(shownStage().orElseThrow().getScene(), "sign-in-refused");

        // the refused try gives the password field the keys again
        await(() -> field("#password").filter(TextField::isFocused).isPresent());
        robot.write(PASSWORD).type(KeyCode.ENTER);
        await(() -> shownStage().map(Stage::getTitle).filter("Countersign · 3 waiting"::equals).isPresent());
        assertThat(robot.lookup("#userName").queryAs(Label.class).getText()).isEqualTo(LOGIN)
                .isNotEqualTo(System.getProperty("user.name"));

        Path settings = folder.resolve("config/countersign/console.properties");
        await(() -> Files.exists(settings) && read(settings).contains("store.user=" + LOGIN));
        assertThat(read(settings)).doesNotContain(PASSWORD).doesNotContain(WRONG);
        FxToolkit.cleanupApplication(application);
        application = null;
        assertThat(opening.close()).isZero();
        opening = null;

        // the next start without --store opens the remembered store, asks again, and Esc quits cleanly
        start(null, environment);
        await(() -> field("#password").isPresent());
        assertThat(field("#url").map(TextField::getText)).contains(url);
        assertThat(field("#user").map(TextField::getText)).contains(LOGIN);
        assertThat(problem()).isEmpty();
        robot.type(KeyCode.ESCAPE);
        await(() -> shownStage().isEmpty());
        assertThat(opening.close()).isZero();
        opening = null;
        assertThat(read(settings)).doesNotContain(PASSWORD).doesNotContain(WRONG);
    }

    private void start(String store, Map<String, String> environment) throws Exception {
        opening = ConsoleLauncher.opening(store, environment);
        ConsoleApplication.prepare(opening);
        application = FxToolkit.setupApplication(ConsoleApplication.class);
    }

    private static Optional<Stage> shownStage() {
        return Window.getWindows().stream().filter(Window::isShowing).filter(Stage.class::isInstance)
                .map(Stage.class::cast).findFirst();
    }

    private static Optional<TextField> field(String selector) {
        return shownStage().map(stage -> stage.getScene().getRoot().lookup(selector))
                .filter(TextField.class::isInstance).map(TextField.class::cast);
    }

    /** The dialog's sentence, when it shows one. */
    private static Optional<String> problem() {
        return shownStage().map(stage -> stage.getScene().getRoot().lookup(".input-error"))
                .filter(node -> node.isVisible()).map(node -> ((Label) node).getText());
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
