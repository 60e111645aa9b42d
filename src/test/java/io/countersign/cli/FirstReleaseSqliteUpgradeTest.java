package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
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

        PrintedFacts.assertReadTheSame("v0.1-sqlite-facts.json", command -> countersign.runHere(with("root",
                command)), PrintedFacts.firstRelease());
        try (Store opened = Store.open(new StoreLocation.SqliteFile(store))) {
            PrintedFacts.assertDeclarationsHold("v0.1-sqlite-facts.json", opened);
        }
        WaitingCards.assertEachIsAnsweredOnce(command -> countersign.runHere(with("maria", command)),
                command -> countersign.runHere(with("root", command)), folder.resolve("release-notes"));
        assertThat(countersign.runHere("--as", "jonas", "events").exitCode()).isZero();
        assertThat(countersign.runHere("--as", "root", "store", "init").exitCode()).isEqualTo(Cli.BAD_USAGE);
        PrintedFacts.assertTheChainBeginsAfter("v0.1-sqlite-facts.json", countersign.runHere("--as", "root", "audit",
                "verify"));
    }

    private static String[] with(String user, String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "--as";
        all[1] = user;
        System.arraycopy(args, 0, all, 2, args.length);
        return all;
    }
}
