package io.countersign.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.Arrays;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real SQLite store file whose interior pages are damaged: a small one is refused at open by the quick check;
 * a large one (past the quick check) is found by the first write that meets the damage, after which the process
 * writes nothing more; {@link Store#check()} lists what is damaged.
 */
class DamagedFileTest {
    @TempDir
    Path folder;

    private Path storeWithRuns(int paddingBytes) throws Exception {
        Path file = folder.resolve("store.db");
        try (Store store = Store.open(new StoreLocation.SqliteFile(file))) {
            for (int i = 0; i < 20; i++) {
                store.runs().create("run-" + i, "writer", "maria", "Task " + i, false, Instant.now());
            }
            assertThat(store.check().whole()).isTrue();
        }
        if (paddingBytes > 0) {
            try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file)) {
                connection.createStatement().execute("CREATE TABLE padding (bytes BLOB)");
                try (PreparedStatement insert = connection.prepareStatement("INSERT INTO padding VALUES (?)")) {
                    insert.setBytes(1, new byte[paddingBytes]);
                    insert.executeUpdate();
                }
            }
        }
        SqlitePages.damageRootPage(file, "runs");
        return file;
    }

    @Test
    void smallDamagedFileIsRefusedAtOpenAndLeftAsItWas() throws Exception {
        Path file = storeWithRuns(0);
        byte[] before = Files.readAllBytes(file);

        assertThatThrownBy(() -> Store.open(new StoreLocation.SqliteFile(file)))
                .isInstanceOfSatisfying(DamagedStoreException.class, damaged -> {
                    assertThat(damaged.problems()).isNotEmpty();
                    assertThat(damaged).hasMessageStartingWith("The store file " + file + " is damaged (")
                            .hasMessageEndingWith("Countersign writes nothing more to it: restore it from a backup"
                                    + " (countersign store check lists the damage).");
                });
        assertThat(Arrays.equals(Files.readAllBytes(file), before)).isTrue();
    }

    @Test
    void firstWriteMeetingTheDamageStopsEveryLaterWrite() throws Exception {
        Path file = storeWithRuns(9 * 1024 * 1024);
        try (Store store = Store.open(new StoreLocation.SqliteFile(file))) {
            assertThatThrownBy(() -> store.runs().create("run-new", "writer", "maria", "More", false, Instant.now()))
                    .isInstanceOf(DamagedStoreException.class)
                    .hasMessageContaining("is damaged, found while trying to record the new run run-new;")
                    .hasMessageContaining("restore it from a backup");
            byte[] before = Files.readAllBytes(file);

            assertThatThrownBy(() -> store.users().add("jonas", Set.of(Role.OPERATOR), Actor.of("ana", Role.ADMIN)))
                    .isInstanceOf(DamagedStoreException.class)
                    .hasMessageContaining("found while trying to record the new run run-new");
            assertThat(Arrays.equals(Files.readAllBytes(file), before)).isTrue();

            StoreCheck check = store.check();
            assertThat(check.applies()).isTrue();
            assertThat(check.whole()).isFalse();
            assertThat(check.problems()).isNotEmpty();
        }
    }
}
