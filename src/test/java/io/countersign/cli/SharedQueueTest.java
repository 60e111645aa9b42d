package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.countersign.engine.Actor;
import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.EventPage;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.event.PageRequest;
import io.countersign.engine.state.RunStatus;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.service.RunExecution;
import io.countersign.store.EmbeddedPostgresExtension;
import io.countersign.store.StoreLocation;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code countersign worker} processes on one PostgreSQL store drain a queue of 200 scripted runs: every run
 * executes exactly once. Each execution leaves a mark nothing else does: the run's scripted turn reads a file
 * outside its workspace, and {@code workspace.boundary} records one denial event per execution.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class SharedQueueTest {
    private static final int RUNS = 200;

    @TempDir
    Path folder;

    @Test
    void aSecondDemoOnPostgresqlEndsAsOnSqlite(EmbeddedPostgres postgres) throws Exception {
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA second_demo");
        }
        CommandProcess countersign = new CommandProcess(folder, postgres.getJdbcUrl("postgres", "postgres")
                + "&currentSchema=second_demo");
        CommandProcess.Result first = countersign.runHere("demo", "--folder", folder.toString());
        assertThat(first.exitCode()).as(first.err()).isZero();

        CommandProcess.Result second = countersign.runHere("demo");

        assertThat(second.exitCode()).as(second.err()).isZero();
        assertThat(second.json().path("created").asBoolean()).isFalse();
    }

    @Test
    void twoWorkersShareTheQueueAndEachRunExecutesOnce(EmbeddedPostgres postgres) throws Exception {
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA shared_queue");
        }
        String url = postgres.getJdbcUrl("postgres", "postgres") + "&currentSchema=shared_queue";
        CommandProcess countersign = new CommandProcess(folder, url);
        Path workspace = Files.createDirectories(folder.resolve("workspace"));
        Files.writeString(workspace.resolve("notes.md"), "notes\n");
        Path script = Files.writeString(folder.resolve("peek.json"), "{\"turns\": ["
                + "{\"content\": \"Looking around.\", \"toolCalls\": [{\"name\": \"fs_list\", \"arguments\":"
                + " {\"path\": \".\"}}, {\"name\": \"fs_read\", \"arguments\": {\"path\": \"../secret.txt\"}}]},"
                + "{\"content\": \"The workspace holds notes.md.\"}]}");
        Path agents = Files.writeString(folder.resolve("agents.json"), "{\"models\": [{\"name\": \"peek-script\","
                + " \"provider\": \"scripted\", \"model\": \"peek\", \"endpoint\": " + quoted(script)
                + ", \"trustZone\": \"local\"}], \"agents\": [{\"name\": \"peeker\", \"model\": \"peek-script\","
                + " \"toolGroups\": [\"files\"], \"workspace\": " + quoted(workspace) + "}]}");
        CommandProcess.Result imported = countersign.run("agents", "import", agents.toString());
        assertThat(imported.exitCode()).as(imported.err()).isZero();

        List<String> runIds = new ArrayList<>();
        try (CountersignRuntime runtime = CountersignRuntime.open(new StoreLocation.Postgres(url))) {
            Actor operator = runtime.localUser();
            for (int i = 0; i < RUNS; i++) {
                runIds.add(runtime.execution().enqueue(operator, "peeker", "What is in the workspace? #" + i, true)
                        .runId());
            }
        }

        CommandProcess.Running first = countersign.start(Map.of(), "worker", "--drain", "--threads", "2");
        CommandProcess.Running second = countersign.start(Map.of(), "worker", "--drain", "--threads", "2");
        CommandProcess.Result one = first.await();
        CommandProcess.Result two = second.await();

        assertThat(one.exitCode()).as(one.err()).isZero();
        assertThat(two.exitCode()).as(two.err()).isZero();
        assertThat(one.json().path("firstStretches").asInt() + two.json().path("firstStretches").asInt())
                .isEqualTo(RUNS);
        try (CountersignRuntime runtime = CountersignRuntime.open(new StoreLocation.Postgres(url))) {
            Actor admin = runtime.localUser();
            Map<String, Integer> denialsPerRun = new HashMap<>();
            for (GovernanceEvent event : allEvents(runtime, admin)) {
                denialsPerRun.merge(event.runId(), 1, Integer::sum);
            }
            assertThat(denialsPerRun.keySet()).containsExactlyInAnyOrderElementsOf(runIds);
            assertThat(Set.copyOf(denialsPerRun.values())).containsExactly(1);
            for (String runId : runIds) {
                RunExecution run = runtime.execution().execution(admin, runId);
                assertThat(run.status()).isEqualTo(RunStatus.COMPLETED);
                assertThat(run.calls()).extracting(ToolInvocationObservation::outcome).containsExactly(
                        ToolInvocationObservation.Outcome.OK, ToolInvocationObservation.Outcome.DENIED);
            }
        }
        assertThat(workedOn(one)).as("runs both workers report").doesNotContainAnyElementsOf(workedOn(two));
    }

    private static List<GovernanceEvent> allEvents(CountersignRuntime runtime, Actor admin) {
        List<GovernanceEvent> events = new ArrayList<>();
        EventFilter denials = EventFilter.all().ofTypes(Set.of(EventType.INVOCATION_DENIED));
        PageRequest request = PageRequest.first(PageRequest.MAX_SIZE);
        while (request != null) {
            EventPage page = runtime.events().page(admin, denials, request);
            events.addAll(page.events());
            request = page.nextCursor().map(cursor -> PageRequest.after(cursor, PageRequest.MAX_SIZE)).orElse(null);
        }
        return events;
    }

    /** The runs a worker's progress lines say it ran. */
    private static List<String> workedOn(CommandProcess.Result worker) {
        return worker.err().lines().filter(line -> line.contains(": ran run "))
                .map(line -> line.substring(line.indexOf("ran run ") + 8, line.lastIndexOf(':'))).toList();
    }

    private static String quoted(Path path) {
        return JsonNodeFactory.instance.textNode(path.toString()).toString();
    }
}
