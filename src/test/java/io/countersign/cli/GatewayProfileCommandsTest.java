package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;
import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.engine.Actor;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.countersign.tools.mcp.McpPeers;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gateway profiles add|list|remove} as a script runs them: each command a {@code countersign} process of its
 * own, its exit code, its JSON on stdout, and a one-line error on stderr when it refuses.
 */
class GatewayProfileCommandsTest {
    @TempDir
    Path folder;
    CommandProcess countersign;

    @BeforeEach
    void aStoreWithTwoServerRecords() {
        Path db = folder.resolve("countersign.db");
        countersign = new CommandProcess(folder, db.toString());
        try (Store store = Store.open(new StoreLocation.SqliteFile(db))) {
            Actor admin = store.users().signedIn(System.getProperty("user.name", "operator"));
            String filesystem = McpPeers.script(McpPeers.FILESYSTEM, "dist/index.js");
            store.servers().add(McpServerRecord.stdio("disk", McpPeers.node(), List.of(filesystem,
                    folder.toString())), admin);
            store.servers().add(McpServerRecord.stdio("everything", McpPeers.node(),
                    List.of(McpPeers.script(McpPeers.EVERYTHING, "dist/index.js"), "stdio")), admin);
        }
    }

    @Test
    void addListAndRemoveAProfile() {
        JsonNode added = done(countersign.run("gateway", "profiles", "add", "desk", "--server", "disk", "--server",
                "everything", "--zone", "privateHosted", "--four-eyes", "--deadline", "30m", "--fallback", "deny"));
        assertThat(added.get("name").asText()).isEqualTo("desk");
        assertThat(added.get("trustZone").asText()).isEqualTo("privateHosted");
        assertThat(added.get("fourEyes").asBoolean()).isTrue();
        assertThat(added.get("toolGroups")).hasSize(2);
        assertThat(added.get("decisionDeadline").asText()).isEqualTo("30m");
        assertThat(added.get("onDeadline").asText()).isEqualTo("deny");

        JsonNode listed = done(countersign.run("gateway", "profiles"));
        assertThat(names(listed)).containsExactly("desk");
        assertThat(listed.get(0).get("decisionDeadline").asText()).isEqualTo("30m");

        JsonNode removed = done(countersign.run("gateway", "profiles", "remove", "desk"));
        assertThat(removed.get("removed").asText()).isEqualTo("desk");
        assertThat(done(countersign.run("gateway", "profiles"))).isEmpty();
    }

    @Test
    void addingAProfileOfTheSameNameReplacesItRatherThanAddingASecond() {
        done(countersign.run("gateway", "profiles", "add", "desk", "--server", "disk"));

        JsonNode replaced = done(countersign.run("gateway", "profiles", "add", "desk", "--server", "everything"));

        assertThat(replaced.get("toolGroups")).hasSize(1);
        JsonNode listed = done(countersign.run("gateway", "profiles"));
        assertThat(names(listed)).containsExactly("desk");
        assertThat(listed.get(0).get("toolGroups").toString()).isEqualTo(replaced.get("toolGroups").toString());
        assertThat(listed.get(0).has("decisionDeadline")).isFalse();
    }

    @Test
    void anUnknownServerRecordIsABadUsageNamingItAndSavesNothing() {
        CommandProcess.Result result = countersign.run("gateway", "profiles", "add", "desk", "--server", "disk",
                "--server", "dsk");

        assertOneLineError(result, 2, "no MCP server record is named \"dsk\"; add it first with"
                + " `countersign servers add`");
        assertThat(done(countersign.run("gateway", "profiles"))).isEmpty();
    }

    @Test
    void aProfileNamedAfterAnAgentIsRefusedAndTheAgentKept() {
        done(countersign.run("demo", "--folder", folder.resolve("demo").toString()));

        CommandProcess.Result result = countersign.run("gateway", "profiles", "add", "web-research", "--server",
                "disk");

        assertOneLineError(result, 2, "\"web-research\" is an agent with the model");
        assertThat(result.err()).contains("a gateway profile needs a name of its own");
        assertThat(done(countersign.run("gateway", "profiles"))).isEmpty();
        assertThat(done(countersign.run("agents")).toString()).contains("\"web-research\"");
    }

    @Test
    void aBadDeadlineIsABadUsageThatQuotesIt() {
        CommandProcess.Result result = countersign.run("gateway", "profiles", "add", "desk", "--server", "disk",
                "--deadline", "soon", "--fallback", "deny");

        assertOneLineError(result, 2, "--deadline must be a whole number of seconds, minutes or hours such as 90s,"
                + " 30m or 8h, got \"soon\"");
        assertThat(done(countersign.run("gateway", "profiles"))).isEmpty();
    }

    @Test
    void aDeadlineWithoutAFallbackAndAFallbackWithoutADeadlineAreRefused() {
        assertOneLineError(countersign.run("gateway", "profiles", "add", "desk", "--server", "disk", "--deadline",
                "30m"), 2, "a deadline needs --fallback deny, cancel or escalate");
        assertOneLineError(countersign.run("gateway", "profiles", "add", "desk", "--server", "disk", "--fallback",
                "deny"), 2, "--fallback deny needs a --deadline");
    }

    @Test
    void aProfileThatFrontsNothingIsRefused() {
        assertOneLineError(countersign.run("gateway", "profiles", "add", "desk"), 2,
                "gateway profile \"desk\" fronts nothing: name at least one --server or --tool");
    }

    @Test
    void removingAnUnknownProfileNamesTheKnownOnes() {
        done(countersign.run("gateway", "profiles", "add", "desk", "--server", "disk"));

        assertOneLineError(countersign.run("gateway", "profiles", "remove", "dsek"), 2,
                "no gateway profile is named \"dsek\"; known profiles: desk");
        assertThat(names(done(countersign.run("gateway", "profiles")))).containsExactly("desk");
    }

    private static JsonNode done(CommandProcess.Result result) {
        assertThat(result.exitCode()).as(result.err()).isZero();
        return result.json();
    }

    private static void assertOneLineError(CommandProcess.Result result, int exitCode, String contains) {
        assertThat(result.exitCode()).as(result.err()).isEqualTo(exitCode);
        assertThat(result.err().lines().toList()).as("stderr").singleElement().asString().contains(contains);
        assertThat(result.out()).isEmpty();
    }

    private static List<String> names(JsonNode profiles) {
        List<String> names = new ArrayList<>();
        profiles.forEach(profile -> names.add(profile.get("name").asText()));
        return names;
    }
}
