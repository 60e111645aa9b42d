package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.countersign.engine.agent.ApprovalQuorum;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How many people approve an agent's cards, in the agents file: imported, exported back, and bad values named. */
class AgentApprovalsFileTest {
    private static final String SCRIPTED = "{\"name\": \"replay\", \"provider\": \"scripted\", \"model\": \"replay\","
            + " \"endpoint\": \"classpath:/demo/scripts/workspace-auditor.json\", \"trustZone\": \"local\"}";

    @TempDir
    Path folder;
    DemoStore demo;
    AgentService agents;

    @BeforeEach
    void open() {
        demo = new DemoStore(folder);
        agents = demo.runtime.agents();
    }

    @AfterEach
    void close() {
        demo.close();
    }

    private static String file(String agents) {
        return "{\"models\": [" + SCRIPTED + "], \"agents\": [" + agents + "]}";
    }

    @Test
    void approvalsAreImportedAndExportedBack() throws Exception {
        agents.importJson(demo.admin, file("{\"name\": \"payroll\", \"model\": \"replay\", \"toolGroups\":"
                + " [\"files\"], \"fourEyes\": true, \"approvals\": 2, \"toolApprovals\": {\"fs_delete\": 3}}"));

        assertThat(demo.runtime.store().configurations().findAgent("payroll").orElseThrow().approvals())
                .isEqualTo(new ApprovalQuorum(2, Map.of("fs_delete", 3)));
        Path exported = folder.resolve("agents.json");
        agents.exportFile(demo.admin, exported);
        JsonNode payroll = StreamSupport.stream(new ObjectMapper().readTree(exported.toFile()).get("agents")
                .spliterator(), false).filter(agent -> agent.get("name").asText().equals("payroll")).findFirst()
                .orElseThrow();
        assertThat(payroll.get("approvals").asInt()).isEqualTo(2);
        assertThat(payroll.get("toolApprovals").toString()).isEqualTo("{\"fs_delete\":3}");
        JsonNode auditor = StreamSupport.stream(new ObjectMapper().readTree(exported.toFile()).get("agents")
                .spliterator(), false).filter(agent -> agent.get("name").asText().equals("workspace-auditor"))
                .findFirst().orElseThrow();
        assertThat(auditor.has("approvals")).as("one approval is the default and not written").isFalse();
        assertThat(demo.runtime.runs().agents(demo.admin)).filteredOn(agent -> agent.name().equals("payroll"))
                .singleElement().satisfies(agent -> assertThat(agent.approvals())
                        .isEqualTo(new ApprovalQuorum(2, Map.of("fs_delete", 3))));
    }

    @Test
    void badApprovalsNameTheFieldAndTheValue() {
        String json = file("{\"name\": \"a\", \"model\": \"replay\", \"approvals\": 0},"
                + " {\"name\": \"b\", \"model\": \"replay\", \"approvals\": \"two\"},"
                + " {\"name\": \"c\", \"model\": \"replay\", \"toolApprovals\": {\"fs_nothing\": 2}},"
                + " {\"name\": \"d\", \"model\": \"replay\", \"toolApprovals\": {\"intake_form\": 2}}");

        assertThatThrownBy(() -> agents.importJson(demo.admin, json))
                .isInstanceOfSatisfying(ConfigurationException.class, e -> assertThat(e.problems()).satisfiesExactly(
                        a -> assertThat(a).isEqualTo("agents[0] \"a\": approvals must be a whole number from 1 to 9"
                                + " (how many distinct people approve), got 0"),
                        b -> assertThat(b).isEqualTo("agents[1] \"b\": approvals must be a whole number from 1 to 9,"
                                + " got \"two\""),
                        c -> assertThat(c).startsWith("agents[2] \"c\": \"toolApprovals\"").contains("fs_nothing"),
                        d -> assertThat(d).isEqualTo("agents[3] \"d\": \"toolApprovals\" \"intake_form\" asks for"
                                + " typed input, which one person gives; only calls that wait for approval can need"
                                + " more approvals")));
    }
}
