package io.countersign.engine;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.tool.ConfigurableApproval;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.InputField;
import io.countersign.engine.tool.RemoteTool;
import io.countersign.engine.tool.RequiresApproval;
import io.countersign.engine.tool.RequiresInput;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolPreview;
import io.countersign.engine.tool.ToolResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/** Small real tools for engine tests: each records its executions so a test can prove what ran. */
final class TestTools {
    static final ObjectMapper JSON = new ObjectMapper();

    private TestTools() {
    }

    static ObjectNode args(String json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    static ObjectNode objectSchema(String... stringProperties) {
        ObjectNode schema = JSON.createObjectNode().put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        for (String property : stringProperties) {
            properties.putObject(property).put("type", "string");
        }
        return schema;
    }

    /** A tool with fixed traits that answers "done <name> <arguments>" and remembers every call. */
    static class Recording implements Tool {
        final String name;
        final ToolEffect effect;
        final DataClass dataClass;
        final String group;
        final List<ObjectNode> executed = Collections.synchronizedList(new ArrayList<>());
        final AtomicReference<String> preview = new AtomicReference<>();
        boolean adminOnly;

        Recording(String name, ToolEffect effect, DataClass dataClass, String group) {
            this.name = name;
            this.effect = effect;
            this.dataClass = dataClass;
            this.group = group;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String description() {
            return "test tool " + name;
        }

        @Override
        public ObjectNode argumentSchema() {
            return objectSchema("path", "content", "question", "answer");
        }

        @Override
        public ToolEffect effect() {
            return effect;
        }

        @Override
        public DataClass dataClass() {
            return dataClass;
        }

        @Override
        public String group() {
            return group;
        }

        @Override
        public boolean adminOnly() {
            return adminOnly;
        }

        @Override
        public ToolResult execute(ToolCallRequest request) throws Exception {
            executed.add(request.arguments());
            return ToolResult.ok("done " + name + " " + request.arguments());
        }

        @Override
        public Optional<ToolPreview> preview(ToolCallRequest request) {
            String text = preview.get();
            return text == null ? Optional.empty() : Optional.of(new ToolPreview(List.of(text)));
        }
    }

    static Recording read(String name) {
        return new Recording(name, ToolEffect.READ, DataClass.SOURCE_CODE, "files");
    }

    static Recording write(String name) {
        return new Recording(name, ToolEffect.WRITE, DataClass.SOURCE_CODE, "files");
    }

    static final class Marked extends Recording implements RequiresApproval {
        Marked(String name) {
            super(name, ToolEffect.READ, DataClass.PUBLIC_CONTENT, "files");
        }
    }

    static final class Configurable extends Recording implements ConfigurableApproval {
        Configurable(String name, ToolEffect effect) {
            super(name, effect, DataClass.PUBLIC_CONTENT, "files");
        }
    }

    static final class Remote extends Recording implements RemoteTool {
        final String server;

        Remote(String name, String server, ToolEffect effect) {
            super(name, effect, DataClass.PUBLIC_CONTENT, "files");
            this.server = server;
        }

        @Override
        public String serverName() {
            return server;
        }
    }

    static final class Input extends Recording implements RequiresInput {
        Input(String name) {
            super(name, ToolEffect.READ, DataClass.PUBLIC_CONTENT, "files");
        }

        @Override
        public List<InputField> inputFields() {
            return List.of(InputField.text("answer", "Answer", "What to tell the agent", true),
                    new InputField("count", InputField.InputType.INTEGER, "Count", "", false, List.of()),
                    InputField.choice("tone", "Tone", "", false, List.of("formal", "casual")));
        }
    }

    /** A tool whose executor throws with a message that must never reach the model or the store. */
    static final class Throwing extends Recording {
        Throwing(String name) {
            super(name, ToolEffect.READ, DataClass.PUBLIC_CONTENT, "files");
        }

        @Override
        public ToolResult execute(ToolCallRequest request) {
            throw new IllegalStateException("secret-token-123 leaked in a stack trace");
        }
    }
}
