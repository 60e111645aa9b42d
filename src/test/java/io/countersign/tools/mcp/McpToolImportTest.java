package io.countersign.tools.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.countersign.engine.access.ToolApprovalRule;
import io.countersign.engine.tool.ApprovalDeclaration;
import io.countersign.engine.tool.ToolSettings;
import io.countersign.engine.access.UnattendedToolFilter;
import io.countersign.engine.port.ToolSettingsSource;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.ImportReport;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolRegistry;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How a server's tool list becomes remote tools in the registry, without a live server. */
class McpToolImportTest {
    private final ToolRegistry registry = new ToolRegistry();
    private final McpServerRecord files = McpServerRecord.stdio("files", "files-server", List.of())
            .withGroup("remote").withDataClass(DataClass.SOURCE_CODE);
    private final McpToolSource source = McpToolSource.builder(files, registry).build();

    private static McpSchema.Tool tool(String name, Map<String, Object> schema) {
        return McpSchema.Tool.builder(name, schema).description("does " + name).build();
    }

    private static McpSchema.Tool hinted(String name, boolean readOnly, boolean destructive) {
        return McpSchema.Tool.builder(name, objectSchema()).description("does " + name)
                .annotations(McpSchema.ToolAnnotations.builder().readOnlyHint(readOnly).destructiveHint(destructive)
                        .build())
                .build();
    }

    private static Map<String, Object> objectSchema(String... properties) {
        Map<String, Object> declared = new LinkedHashMap<>();
        for (String property : properties) {
            declared.put(property, Map.of("type", "string"));
        }
        return Map.of("type", "object", "properties", declared);
    }

    private ImportReport importing(McpSchema.Tool... tools) {
        return source.importTools(List.of(tools), ImportReport.Trigger.REFRESH);
    }

    @Test
    void aToolIsNamedAfterItsServerAndSanitised() {
        ImportReport report = importing(tool("Read File!", objectSchema()), tool("list-dir.v2", objectSchema()));

        assertThat(report.registered()).containsExactly("files.read_file_", "files.list-dir.v2");
        // the registry offers a server's tools by name, whatever order the server listed them in
        assertThat(registry.names()).containsExactly("files.list-dir.v2", "files.read_file_");
    }

    @Test
    void aLongNameIsCutTo64Characters() {
        ImportReport report = importing(tool("x".repeat(100), objectSchema()));

        assertThat(report.registered()).singleElement()
                .isEqualTo("files." + "x".repeat(58));
    }

    @Test
    void aNameCollisionAfterSanitisingIsReportedAndTheLaterToolSkipped() {
        ImportReport report = importing(tool("Read File", objectSchema()), tool("read_file", objectSchema()));

        assertThat(report.registered()).containsExactly("files.read_file");
        assertThat(report.skipped()).containsExactly(new ImportReport.SkippedTool("read_file",
                "its name becomes \"files.read_file\", which tool \"Read File\" of the same server already has"));
        assertThat(registry.find("files.read_file").orElseThrow().description()).isEqualTo("does Read File");
    }

    @Test
    void aToolWhoseSchemaIsNotAnObjectIsReportedAndNotRegistered() {
        ImportReport report = importing(tool("scalar", Map.of("type", "string")), tool("untyped", Map.of()),
                tool("fine", objectSchema("path")));

        assertThat(report.registered()).containsExactly("files.fine");
        assertThat(report.skipped()).containsExactly(
                new ImportReport.SkippedTool("scalar", "its input schema is not an object schema (\"type\": \"string\")"),
                new ImportReport.SkippedTool("untyped", "its input schema is not an object schema (it has no \"type\")"));
        assertThat(registry.names()).containsExactly("files.fine");
    }

    @Test
    void aToolWithoutANameIsReported() throws Exception {
        McpSchema.ListToolsResult listed = McpJsonDefaults.getMapper().readValue(
                "{\"tools\": [{\"description\": \"nameless\", \"inputSchema\": {\"type\": \"object\"}}, null]}",
                McpSchema.ListToolsResult.class);

        ImportReport report = source.importTools(listed.tools(), ImportReport.Trigger.REFRESH);

        assertThat(report.registered()).isEmpty();
        assertThat(report.skipped()).containsExactly(new ImportReport.SkippedTool("", "the tool has no name"),
                new ImportReport.SkippedTool(null, "the tool has no name"));
    }

    @Test
    void aNameAnotherSourceAlreadyRegisteredIsReported() {
        McpToolSource other = McpToolSource.builder(files, registry).build();
        other.importTools(List.of(tool("read", objectSchema())), ImportReport.Trigger.REFRESH);

        ImportReport report = importing(tool("read", objectSchema()));

        assertThat(report.registered()).isEmpty();
        assertThat(report.skipped()).containsExactly(new ImportReport.SkippedTool("read",
                "a tool named \"files.read\" is already registered"));
    }

    @Test
    void anImportedToolHasTheServersDescriptionAndSchemaAndTheRecordsGroupAndDataClass() {
        importing(tool("read", objectSchema("path")));

        Tool read = registry.find("files.read").orElseThrow();
        assertThat(read.description()).isEqualTo("does read");
        assertThat(read.argumentSchema()).isEqualTo(new ObjectMapper().valueToTree(objectSchema("path")));
        assertThat(read.group()).isEqualTo("remote");
        assertThat(read.dataClass()).isEqualTo(DataClass.SOURCE_CODE);
    }

    @Test
    void aReImportUnregistersVanishedToolsAndRegistersNewOnes() {
        importing(tool("a", objectSchema()), tool("b", objectSchema()));
        Tool keptBefore = registry.find("files.b").orElseThrow();

        ImportReport report = importing(tool("b", objectSchema()), tool("c", objectSchema()));

        assertThat(report.removed()).containsExactly("files.a");
        assertThat(report.registered()).containsExactly("files.b", "files.c");
        assertThat(registry.names()).containsExactly("files.b", "files.c");
        assertThat(registry.find("files.b")).containsSame(keptBefore);
    }

    @Test
    void aReImportReplacesAToolWhoseDefinitionChanged() {
        importing(tool("a", objectSchema("path")));

        importing(tool("a", objectSchema("path", "encoding")));

        assertThat(registry.find("files.a").orElseThrow().argumentSchema().path("properties").has("encoding"))
                .isTrue();
    }

    @Test
    void closingTheSourceUnregistersItsTools() {
        importing(tool("a", objectSchema()));

        source.close();

        assertThat(registry.names()).isEmpty();
    }

    @Test
    void aReadOnlyHintDoesNotSpareAToolOfAnApprovalBoundServerItsApproval() {
        importing(hinted("look", true, false));

        assertThat(files.withApprovalBound(true).declareIn(ToolSettings.defaults())
                .requiresApproval(registry.find("files.look").orElseThrow())).isTrue();
    }

    @Test
    void aDestructiveHintDoesNotMakeAToolOfAServerDeclaredNotApprovalBoundWait() {
        importing(hinted("erase", false, true));

        assertThat(files.withApprovalBound(false).declareIn(ToolSettings.defaults())
                .requiresApproval(registry.find("files.erase").orElseThrow())).isFalse();
    }

    @Test
    void aDestructiveHintDoesNotMakeAToolOfAnUndeclaredServerWaitOrLeaveTheUnattendedSet() {
        importing(hinted("erase", false, true));
        ToolSettings settings = files.declareIn(ToolSettings.defaults());

        assertThat(files.declaration()).isEqualTo(ApprovalDeclaration.NOT_DECLARED);
        assertThat(settings.requiresApproval(registry.find("files.erase").orElseThrow())).isFalse();
        assertThat(new UnattendedToolFilter(registry, new ToolApprovalRule(ToolSettingsSource.fixed(settings)))
                .unattended(List.of("files.erase"))).containsExactly("files.erase");
    }

    @Test
    void remoteToolsAreUnattendedUnlessTheirServerIsDeclaredApprovalBound() {
        importing(tool("read", objectSchema()), tool("write", objectSchema()));
        McpServerRecord web = McpServerRecord.stdio("web", "web-server", List.of()).withApprovalBound(true);
        McpToolSource.builder(web, registry).build()
                .importTools(List.of(tool("fetch", objectSchema())), ImportReport.Trigger.REFRESH);
        McpServerRecord notes = McpServerRecord.stdio("notes", "notes-server", List.of());
        McpToolSource.builder(notes, registry).build()
                .importTools(List.of(tool("erase", objectSchema())), ImportReport.Trigger.REFRESH);
        ToolSettings settings = notes.declareIn(web.declareIn(files.withApprovalBound(false)
                .declareIn(ToolSettings.defaults())));

        List<String> unattended = new UnattendedToolFilter(registry,
                new ToolApprovalRule(ToolSettingsSource.fixed(settings))).unattended(registry.names());

        assertThat(unattended).containsExactly("files.read", "files.write", "notes.erase");
    }

    @Test
    void aDisabledServerIsNotConnected() {
        McpToolSource disabled = McpToolSource.builder(files.withEnabled(false), registry).build();

        assertThatThrownBy(disabled::open).isInstanceOf(IllegalStateException.class)
                .hasMessage("server \"files\" is disabled; enable it before connecting");
    }
}
