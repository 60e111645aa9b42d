package io.countersign.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.InputField;
import io.countersign.engine.tool.RequiresInput;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolPreview;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.engine.tool.ToolResult;
import io.countersign.engine.tool.ToolSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class ToolRegistryTest {

    @Test
    void keepsRegistrationOrder() {
        ToolRegistry registry = ToolRegistry.of(TestTools.read("b_tool"), TestTools.read("a_tool"));
        assertThat(registry.names()).containsExactly("b_tool", "a_tool");
    }

    @Test
    void aToolsSpecIsMadeOnceAndNoCallerCanChangeIt() {
        ToolRegistry registry = ToolRegistry.of(TestTools.read("fs_read"));
        ToolSpec spec = registry.spec("fs_read").orElseThrow();

        spec.parameters().put("type", "changed");

        assertThat(registry.spec("fs_read").orElseThrow()).isSameAs(spec);
        assertThat(spec.parameters()).isEqualTo(ToolSpec.of(registry.find("fs_read").orElseThrow()).parameters());
        assertThat(spec.parameters().path("type").asText()).isEqualTo("object");
        registry.unregister("fs_read");
        assertThat(registry.spec("fs_read")).isEmpty();
    }

    @Test
    void refusesADuplicateName() {
        ToolRegistry registry = ToolRegistry.of(TestTools.read("fs_read"));
        assertThatThrownBy(() -> registry.register(TestTools.read("fs_read")))
                .hasMessageContaining("\"fs_read\" is already registered");
    }

    @Test
    void refusesBadNames() {
        for (String bad : List.of("Read", "1tool", "", "tool name", "x".repeat(65))) {
            assertThatThrownBy(() -> ToolRegistry.of(TestTools.read(bad)))
                    .as(bad).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must match");
        }
    }

    @Test
    void refusesASchemaThatIsNotAnObject() {
        TestTools.Recording arrayTool = new TestTools.Recording("lister", ToolEffect.READ, DataClass.PUBLIC_CONTENT,
                "files") {
            @Override
            public ObjectNode argumentSchema() {
                return TestTools.args("{\"type\":\"array\"}");
            }
        };
        assertThatThrownBy(() -> ToolRegistry.of(arrayTool)).hasMessageContaining("object schema");
    }

    @Test
    void refusesAnApprovalBoundToolThatAlsoAsksForInput() {
        class WriteInput extends TestTools.Recording implements RequiresInput {
            WriteInput() {
                super("write_form", ToolEffect.WRITE, DataClass.PUBLIC_CONTENT, "files");
            }

            @Override
            public List<InputField> inputFields() {
                return List.of(InputField.text("answer", "Answer", "", true));
            }
        }
        assertThatThrownBy(() -> ToolRegistry.of(new WriteInput()))
                .hasMessageContaining("both needs approval and asks for typed input");
    }

    @Test
    void refusesAnInputToolWithoutFields() {
        class Empty extends TestTools.Recording implements RequiresInput {
            Empty() {
                super("empty_form", ToolEffect.READ, DataClass.PUBLIC_CONTENT, "files");
            }

            @Override
            public List<InputField> inputFields() {
                return List.of();
            }
        }
        assertThatThrownBy(() -> ToolRegistry.of(new Empty())).hasMessageContaining("declares no fields");
    }

    @Test
    void unregisteredToolIsGone() {
        ToolRegistry registry = ToolRegistry.of(TestTools.read("fs_read"));
        assertThat(registry.unregister("fs_read")).isTrue();
        assertThat(registry.find("fs_read")).isEmpty();
        assertThat(registry.unregister("fs_read")).isFalse();
    }

    @Test
    void previewsAreBoundedAndClippedOnRequest() {
        assertThatThrownBy(() -> new ToolPreview(List.of("x".repeat(501)))).hasMessageContaining("500");
        assertThatThrownBy(() -> new ToolPreview(java.util.Collections.nCopies(21, "line")))
                .hasMessageContaining("20 lines");
        ToolPreview clipped = ToolPreview.clipped(java.util.Collections.nCopies(30, "y".repeat(600)));
        assertThat(clipped.lines()).hasSize(20);
        assertThat(clipped.lines().get(0)).hasSize(500);
        assertThat(clipped.lines().get(19)).isEqualTo("… 11 more lines");
    }

    @Test
    void resultsAreCappedAtFiftyThousandBytes() {
        ToolResult result = ToolResult.ok("é".repeat(40_000));
        assertThat(result.content().getBytes(java.nio.charset.StandardCharsets.UTF_8).length)
                .isLessThanOrEqualTo(ToolResult.MAX_BYTES);
        assertThat(result.content()).endsWith("only the first 50000 kept]");
    }

    @Test
    void inputFieldsValidateTheirShape() {
        assertThatThrownBy(() -> InputField.choice("tone", "Tone", "", true, List.of()))
                .hasMessageContaining("at least one option");
        assertThatThrownBy(() -> new InputField("bad name", InputField.InputType.STRING, "", "", true, List.of()))
                .hasMessageContaining("JSON identifier");
    }
}
