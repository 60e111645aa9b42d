package io.countersign.store;

import static org.assertj.core.api.Assertions.assertThat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The versions a store must list to skip Flyway are exactly this build's migration files. */
class MigrationsTest {

    @Test
    void theVersionsThatSkipFlywayAreThoseOfTheMigrationFiles() throws IOException {
        Set<String> files;
        try (Stream<Path> migrations = Files.list(Path.of("src", "main", "resources", "db", "migration"))) {
            files = migrations.map(path -> path.getFileName().toString())
                    .filter(name -> name.matches("V\\d+__.+\\.sql"))
                    .map(name -> name.substring(1, name.indexOf("__")))
                    .collect(Collectors.toSet());
        }

        assertThat(Migrations.VERSIONS).isEqualTo(files);
    }
}
