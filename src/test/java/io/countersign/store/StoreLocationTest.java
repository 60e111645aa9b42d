package io.countersign.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreLocationTest {
    @TempDir
    Path home;

    @Test
    void storeOptionWinsOverTheEnvironment() {
        StoreLocation location = StoreLocation.resolve("/srv/team.db",
                Map.of("COUNTERSIGN_STORE", "/elsewhere.db", "HOME", home.toString()));

        assertThat(location).isEqualTo(new StoreLocation.SqliteFile(Path.of("/srv/team.db")));
    }

    @Test
    void postgresUrlChoosesPostgres() {
        StoreLocation location = StoreLocation.resolve("jdbc:postgresql://db.example.org/countersign", Map.of());

        assertThat(location).isEqualTo(new StoreLocation.Postgres("jdbc:postgresql://db.example.org/countersign"));
    }

    @Test
    void environmentVariableIsUsedWithoutAnOption() {
        StoreLocation location = StoreLocation.resolve(null, Map.of("COUNTERSIGN_STORE", "/srv/desk.db"));

        assertThat(location).isEqualTo(new StoreLocation.SqliteFile(Path.of("/srv/desk.db")));
    }

    @Test
    void relativePathIsTakenFromTheWorkingFolder() {
        StoreLocation location = StoreLocation.resolve("desk.db", Map.of());

        assertThat(location).isEqualTo(new StoreLocation.SqliteFile(Path.of("desk.db").toAbsolutePath()));
    }

    @Test
    void defaultIsInTheXdgDataFolderWhichIsCreated() {
        Path data = home.resolve("data");

        StoreLocation location = StoreLocation.resolve(null, Map.of("XDG_DATA_HOME", data.toString(),
                "HOME", home.toString()));

        assertThat(location).isEqualTo(new StoreLocation.SqliteFile(data.resolve("countersign/countersign.db")));
        assertThat(data.resolve("countersign")).isDirectory();
    }

    @Test
    void withoutXdgDataHomeTheDefaultIsUnderLocalShare() {
        StoreLocation location = StoreLocation.resolve(null, Map.of("HOME", home.toString()));

        assertThat(location).isEqualTo(new StoreLocation.SqliteFile(
                home.resolve(".local/share/countersign/countersign.db")));
        assertThat(home.resolve(".local/share/countersign")).isDirectory();
    }

    @Test
    void blankEnvironmentVariableCountsAsUnset() {
        StoreLocation location = StoreLocation.resolve(null, Map.of("COUNTERSIGN_STORE", "", "HOME",
                home.toString()));

        assertThat(location).isEqualTo(new StoreLocation.SqliteFile(
                home.resolve(".local/share/countersign/countersign.db")));
    }

    @Test
    void blankOptionIsRejected() {
        assertThatThrownBy(() -> StoreLocation.resolve(" ", Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--store is empty; give a file path or a jdbc:postgresql:// URL");
    }

    @Test
    void otherJdbcUrlIsRejectedWithoutItsParameters() {
        assertThatThrownBy(() -> StoreLocation.resolve(null,
                Map.of("COUNTERSIGN_STORE", "jdbc:mysql://db/cs?password=secret")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("COUNTERSIGN_STORE \"jdbc:mysql://db/cs\" is not supported; give a file path for SQLite"
                        + " or a jdbc:postgresql:// URL");
    }

    @Test
    void postgresLocationIsDescribedWithoutItsParameters() {
        StoreLocation location = new StoreLocation.Postgres("jdbc:postgresql://db/cs?user=ana&password=env:CS_PW");

        assertThat(location.describe()).isEqualTo("jdbc:postgresql://db/cs");
        assertThat(location.toString()).doesNotContain("CS_PW");
    }

    @Test
    void aPostgresLocationSplitsIntoItsUrlAndLoginAndTakesAnotherLogin() {
        StoreLocation.Postgres location = new StoreLocation.Postgres(
                "jdbc:postgresql://db/cs?user=ana&currentSchema=team&password=env:CS_PW");

        assertThat(location.user()).contains("ana");
        assertThat(location.withoutLogin()).isEqualTo("jdbc:postgresql://db/cs?currentSchema=team");
        assertThat(location.as("lena ö").jdbcUrl())
                .isEqualTo("jdbc:postgresql://db/cs?currentSchema=team&user=lena+%C3%B6");
        assertThat(new StoreLocation.Postgres("jdbc:postgresql://db/cs").as("lena").jdbcUrl())
                .isEqualTo("jdbc:postgresql://db/cs?user=lena");
        assertThat(new StoreLocation.Postgres("jdbc:postgresql://db/cs?user=lena").as("lena").user()).contains("lena");
    }

    @Test
    void aPasswordInTheUrlIsRefusedWithoutRepeatingIt() {
        assertThatThrownBy(() -> StoreLocation.resolve("jdbc:postgresql://db/cs?user=ana&password=hunter2", Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The store URL holds a password, which would show in the process list and in logs; put"
                        + " it in ~/.pgpass (or the file PGPASSFILE names), or point at it with password=env:NAME or"
                        + " password=file:PATH.");
    }
}
