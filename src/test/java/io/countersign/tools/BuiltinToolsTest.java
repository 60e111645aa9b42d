package io.countersign.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;
import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.engine.tool.ToolSettings;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolRegistry;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;

class BuiltinToolsTest {
    private final List<Tool> tools = BuiltinTools.create(OkHttpClient::new, List::of);
    private final Map<String, Tool> byName = tools.stream().collect(Collectors.toMap(Tool::name, Function.identity()));

    private boolean needsApprovalByDefault(String name) {
        return ToolSettings.defaults().requiresApproval(byName.get(name));
    }

    @Test
    void comeInAFixedOrder() {
        assertThat(tools).extracting(Tool::name)
                .containsExactly("fs_list", "fs_read", "fs_write", "fs_delete", "web_fetch", "ask_user");
    }

    @Test
    void allRegisterIntoOneRegistry() {
        ToolRegistry registry = ToolRegistry.of(tools.toArray(Tool[]::new));

        assertThat(registry.names())
                .containsExactly("fs_list", "fs_read", "fs_write", "fs_delete", "web_fetch", "ask_user");
    }

    @Test
    void writingAndFetchingNeedApprovalByDefault() {
        assertThat(needsApprovalByDefault("fs_write")).isTrue();
        assertThat(needsApprovalByDefault("fs_delete")).isTrue();
        assertThat(needsApprovalByDefault("web_fetch")).isTrue();
    }

    @Test
    void readingAndAskingNeedNoApproval() {
        assertThat(needsApprovalByDefault("fs_list")).isFalse();
        assertThat(needsApprovalByDefault("fs_read")).isFalse();
        assertThat(needsApprovalByDefault("ask_user")).isFalse();
    }

    @Test
    void declareTheirEffectDataClassAndGroup() {
        assertThat(tools).extracting(Tool::name, Tool::effect, Tool::dataClass, Tool::group).containsExactly(
                tuple("fs_list", ToolEffect.READ, DataClass.SOURCE_CODE, "files"),
                tuple("fs_read", ToolEffect.READ, DataClass.SOURCE_CODE, "files"),
                tuple("fs_write", ToolEffect.WRITE, DataClass.SOURCE_CODE, "files"),
                tuple("fs_delete", ToolEffect.WRITE, DataClass.SOURCE_CODE, "files"),
                tuple("web_fetch", ToolEffect.READ, DataClass.PUBLIC_CONTENT, "web"),
                tuple("ask_user", ToolEffect.READ, DataClass.PUBLIC_CONTENT,
                        "interaction"));
    }

    @Test
    void schemasAreClosedObjectsWhosePropertiesAreDescribedStrings() {
        for (Tool tool : tools) {
            JsonNode schema = tool.argumentSchema();
            assertThat(schema.path("type").asText()).as(tool.name()).isEqualTo("object");
            assertThat(schema.path("additionalProperties").isBoolean()).as(tool.name()).isTrue();
            assertThat(schema.path("additionalProperties").booleanValue()).as(tool.name()).isFalse();
            assertThat(schema.path("properties").size()).as(tool.name()).isPositive();
            schema.path("properties").forEach(property -> {
                assertThat(property.path("type").asText()).as(tool.name()).isEqualTo("string");
                assertThat(property.path("description").asText()).as(tool.name()).isNotBlank();
            });
            assertThat(schema.path("required")).as(tool.name())
                    .allSatisfy(name -> assertThat(schema.path("properties").has(name.asText())).isTrue());
        }
    }

    @Test
    void aChangedSchemaCopyDoesNotChangeTheTool() {
        Tool read = byName.get("fs_read");
        read.argumentSchema().put("type", "array");

        assertThat(read.argumentSchema().path("type").asText()).isEqualTo("object");
    }

    @Test
    void descriptionsSayWhatTheToolDoes() {
        assertThat(tools).allSatisfy(tool -> assertThat(tool.description()).hasSizeGreaterThan(40).endsWith("."));
    }
}
