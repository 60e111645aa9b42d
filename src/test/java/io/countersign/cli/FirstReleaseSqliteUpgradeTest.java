package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SQLite store the first release (0.1) left, made by {@code src/test/upgrade/make-fixtures.sh} with the same
 * steps as its PostgreSQL dump ({@link FirstReleaseUpgradeTest}): on a desk the people are operating-system users
 * by design, so they keep working right after the upgrade, with nothing to adopt.
 */
class FirstReleaseSqliteUpgradeTest {
    @TempDir
    Path folder;

    @Test
    void everyoneKeepsTheirRolesAndTheWaitingCardDecidesOnce() throws Exception {
        Path store = folder.resolve("countersign.db");
        try (InputStream fixture = Objects.requireNonNull(getClass().getResourceAsStream("/upgrade/v0.1-sqlite.db"))) {
            Files.copy(fixture, store);
        }
        CommandProcess countersign = new CommandProcess(folder, store.toString());

        CommandProcess.Result users = countersign.runHere("--as", "root", "users");

        assertThat(users.exitCode()).as(users.err()).isZero();
        assertThat(users.out().replaceAll("\\s", "")).isEqualTo("[{\"name\":\"jonas\",\"roles\":[\"supervisor\"]},"
                + "{\"name\":\"maria\",\"roles\":[\"operator\"]},"
                + "{\"name\":\"root\",\"roles\":[\"admin\",\"operator\",\"supervisor\"]}]");
        JsonNode inbox = countersign.runHere("--as", "maria", "inbox").json();
        assertThat(StreamSupport.stream(inbox.spliterator(), false).map(run -> run.path("agent").asText()))
                .containsExactlyInAnyOrder("release-notes-bot", "intake-form");
        JsonNode card = StreamSupport.stream(inbox.spliterator(), false)
                .filter(run -> run.path("agent").asText().equals("release-notes-bot")).findFirst().orElseThrow();
        String[] decide = {"decide", card.path("runId").asText(), "--digest", card.path("digest").asText(),
                "--deny-all"};

        CommandProcess.Result decided = countersign.runHere(with("maria", decide));
        CommandProcess.Result again = countersign.runHere(with("root", decide));

        assertThat(decided.exitCode()).as(decided.err()).isZero();
        assertThat(again.exitCode()).isEqualTo(Cli.REFUSED);
        assertThat(again.err()).contains("already decided", "maria");
        assertThat(countersign.runHere("--as", "maria", "inbox").json()).hasSize(1);
        assertThat(countersign.runHere("--as", "jonas", "events").exitCode()).isZero();
        assertThat(countersign.runHere("--as", "root", "store", "init").exitCode()).isEqualTo(Cli.BAD_USAGE);
    }

    private static String[] with(String user, String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "--as";
        all[1] = user;
        System.arraycopy(args, 0, all, 2, args.length);
        return all;
    }
}
