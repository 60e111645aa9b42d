package io.countersign.console;

import static io.countersign.console.RealConsole.await;

import io.countersign.app.CountersignRuntime;
import io.countersign.store.StoreLocation;
import java.nio.file.Path;
import javafx.application.Application;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxToolkit;

/** The application a launcher starts: it opens the console for its context and lets go of it on stop. */
class ConsoleApplicationTest {
    @TempDir
    Path folder;

    @Test
    void theApplicationOpensTheConsoleOnTheStoreOfItsContext() throws Exception {
        FxToolkit.registerPrimaryStage();
        try (CountersignRuntime runtime = CountersignRuntime.open(
                new StoreLocation.SqliteFile(folder.resolve("countersign.db")))) {
            ConsoleApplication.prepare(ConsoleContext.of(runtime.consoleServices(), runtime.localUser(),
                    runtime.describeStore()));
            runtime.ensureDemo(folder);

            Application application = FxToolkit.setupApplication(ConsoleApplication.class);
            // the title carries the waiting count once the inbox has loaded
            await(() -> Window.getWindows().stream().anyMatch(window -> window.isShowing()
                    && window instanceof Stage stage
                    && "Countersign · 3 waiting".equals(stage.getTitle())));
            FxToolkit.cleanupApplication(application);
        }
    }
}
