package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.SqlitePages;
import io.countersign.store.StoreLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code countersign store check} on a real SQLite file, whole and with damaged interior pages; and a command that
 * would write to the damaged file stops before writing, with exit code 5 and one line.
 */
class StoreCheckCommandTest {
    @TempDir
    Path folder;
    Path file;
    CommandProcess countersign;

    @BeforeEach
    void demoStore() {
        file = folder.resolve("countersign.db");
        countersign = new CommandProcess(folder, file.toString());
        try (CountersignRuntime runtime = CountersignRuntime.open(new StoreLocation.SqliteFile(file))) {
            runtime.localUser();
            runtime.ensureDemo(folder);
        }
    }

    @Test
    void wholeStoreChecksWhole() {
        CommandProcess.Result check = countersign.runHere("store", "check");

        assertThat(check.exitCode()).as(check.err()).isZero();
        assertThat(check.json().path("applies").asBoolean()).isTrue();
        assertThat(check.json().path("whole").asBoolean()).isTrue();
        assertThat(check.json().path("problems")).isEmpty();
    }

    @Test
    void damagedStoreIsFoundBeforeAnythingIsWritten() throws Exception {
        SqlitePages.damageRootPage(file, "runs");
        byte[] before = Files.readAllBytes(file);

        for (String[] command : new String[][] {{"run", "--agent", "intake-form", "--prompt", "File a bug"},
                {"inbox"}, {"store", "check"}}) {
            CommandProcess.Result result = countersign.runHere(command);

            assertThat(result.exitCode()).as(result.err()).isEqualTo(Cli.DAMAGED);
            assertThat(result.out()).isEmpty();
            assertThat(result.err().lines().toList()).singleElement().asString()
                    .startsWith("countersign: The store file " + file + " is damaged (")
                    .endsWith("restore it from a backup (countersign store check lists the damage).");
        }
        assertThat(Arrays.equals(Files.readAllBytes(file), before)).isTrue();
    }
}
