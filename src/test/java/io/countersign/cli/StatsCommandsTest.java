package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.engine.Role;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.StoreLocation;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code stats decisions}: run as a script would, on the demo store after one decision. */
class StatsCommandsTest {
    @TempDir
    Path folder;
    CommandProcess countersign;

    @BeforeEach
    void aCardOfTheDemoIsDecided() {
        Path file = folder.resolve("countersign.db");
        countersign = new CommandProcess(folder, file.toString());
        try (CountersignRuntime runtime = CountersignRuntime.open(new StoreLocation.SqliteFile(file))) {
            runtime.localUser();
            runtime.ensureDemo(folder);
            runtime.store().users().add("sam", Set.of(Role.SUPERVISOR), runtime.localUser());
            runtime.store().users().add("olga", Set.of(Role.OPERATOR), runtime.localUser());
        }
        JsonNode web = null;
        for (JsonNode run : countersign.runHere("inbox").json()) {
            if (run.path("agent").asText().equals("web-research")) {
                web = run;
            }
        }
        assertThat(web).isNotNull();
        CommandProcess.Result decided = countersign.runHere("decide", web.path("runId").asText(), "--digest",
                web.path("digest").asText(), "--deny-all");
        assertThat(decided.exitCode()).as(decided.err()).isZero();
    }

    @Test
    void decisionsByToolPrintTheFiguresAndTheCardsWaitingNow() {
        CommandProcess.Result stats = countersign.run("stats", "decisions", "--since", "30d", "--by", "tool");

        assertThat(stats.exitCode()).as(stats.err()).isZero();
        JsonNode json = stats.json();
        assertThat(json.path("by").asText()).isEqualTo("tool");
        assertThat(json.path("rows")).singleElement().satisfies(row -> {
            assertThat(row.path("name").asText()).isEqualTo("web_fetch");
            assertThat(row.path("decisions").asLong()).isEqualTo(1);
            assertThat(row.path("maxSeconds").asDouble()).isGreaterThanOrEqualTo(row.path("p90Seconds").asDouble());
            assertThat(row.path("expired").asLong()).isZero();
        });
        assertThat(json.path("total").path("decisions").asLong()).isEqualTo(1);
        // the demo leaves a file write and a typed input waiting
        assertThat(json.path("waitingNow").path("total").asLong()).isEqualTo(2);
        assertThat(json.path("waitingNow").path("byAge").path("under1m").asLong()).isEqualTo(2);
        assertThat(json.path("lastDay").asText()).isNotEqualTo(json.path("firstDay").asText());
    }

    @Test
    void theTableHasOneLinePerNameAndTheTotal() {
        CommandProcess.Result table = countersign.runHere("--format", "table", "stats", "decisions", "--by",
                "operator");

        assertThat(table.exitCode()).as(table.err()).isZero();
        assertThat(table.out().lines().toList()).hasSize(3).first().asString().contains("operator")
                .contains("p50").contains("p90").contains("max").contains("expired").contains("escalated");
        assertThat(table.out()).contains(System.getProperty("user.name")).contains("all");
    }

    @Test
    void aSupervisorMayReadThemAndAnOperatorIsRefused() {
        CommandProcess.Result sam = countersign.runHere("--as", "sam", "stats", "decisions");
        assertThat(sam.exitCode()).as(sam.err()).isZero();
        assertThat(sam.json().path("by").asText()).isEqualTo("agent");

        CommandProcess.Result olga = countersign.runHere("--as", "olga", "stats", "decisions");
        assertThat(olga.exitCode()).isEqualTo(Cli.REFUSED);
        assertThat(olga.err().lines().toList()).singleElement().asString()
                .contains("olga (operator) may not view decision stats").contains("that needs the role admin or supervisor");
    }

    @Test
    void badValuesAreOneLineErrorsNamingTheValueAndWhatIsAccepted() {
        CommandProcess.Result by = countersign.run("stats", "decisions", "--by", "agents");
        assertThat(by.exitCode()).isEqualTo(Cli.BAD_USAGE);
        assertThat(by.err().lines().toList()).singleElement().asString()
                .contains("--by must be agent, tool or operator, got \"agents\"");
        assertThat(by.out()).isEmpty();

        CommandProcess.Result since = countersign.runHere("stats", "decisions", "--since", "30x");
        assertThat(since.exitCode()).isEqualTo(Cli.BAD_USAGE);
        assertThat(since.err().lines().toList()).singleElement().asString()
                .contains("--since \"30x\" is neither a span like 30d or 12h nor a date like 2026-03-01");

        CommandProcess.Result future = countersign.runHere("stats", "decisions", "--since", "2999-01-01");
        assertThat(future.exitCode()).isEqualTo(Cli.BAD_USAGE);
        assertThat(future.err()).contains("--since 2999-01-01 is after today");

        CommandProcess.Result bare = countersign.runHere("stats");
        assertThat(bare.exitCode()).isEqualTo(Cli.BAD_USAGE);
        assertThat(bare.err()).contains("countersign stats decisions");
    }
}
