package io.countersign.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.countersign.engine.run.RunLifecycle;
import io.countersign.engine.state.RunStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The guard PostgreSQL keeps on runs (V26) lets a run's status change exactly as the lifecycle's table does, and
 * SQLite reads the whole guard as a comment.
 */
class RunGuardMigrationTest {
    private static final Path GUARD = Path.of("src", "main", "resources", "db", "migration", "V26__run_guard.sql");
    private static final Pattern PAIR = Pattern.compile("\\('([a-z_]+)', '([a-z_]+)'\\)");

    @Test
    void theStatusPairsTheGuardAllowsAreThoseOfTheLifecycle() throws IOException {
        String sql = Files.readString(GUARD);
        int from = sql.indexOf("(was, becomes) NOT IN (");
        String pairs = sql.substring(from, sql.indexOf("THEN", from));
        Set<String> guarded = PAIR.matcher(pairs).results().map(pair -> pair.group(1) + " -> " + pair.group(2))
                .collect(Collectors.toSet());

        Set<String> lifecycle = RunLifecycle.table().transitions().stream()
                .filter(transition -> transition.from() != RunLifecycle.State.NEW)
                .map(transition -> code(transition.from()) + " -> " + code(transition.to()))
                .filter(pair -> !pair.substring(0, pair.indexOf(' ')).equals(pair.substring(pair.lastIndexOf(' ') + 1)))
                .collect(Collectors.toSet());

        assertThat(guarded).isEqualTo(lifecycle);
    }

    @Test
    void onSqliteTheGuardIsAComment() throws IOException {
        String sql = Files.readString(GUARD);
        Matcher guard = Pattern.compile("(?s)\\$\\{postgresql_only}(.*)\\$\\{end_postgresql_only}").matcher(sql);

        assertThat(guard.find()).isTrue();
        assertThat(guard.group(1)).doesNotContain("*/");
        assertThat(sql.substring(0, guard.start()).lines()).allMatch(line -> line.startsWith("--"));
        assertThat(sql.substring(guard.end()).strip()).isEmpty();
        assertThat(Dialect.SQLITE.migrationPlaceholders()).containsEntry("postgresql_only", "/*")
                .containsEntry("end_postgresql_only", "*/");
    }

    private static String code(RunLifecycle.State state) {
        return state.status().map(RunStatus::code).orElseThrow();
    }
}
