package io.countersign.model;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A tool with fixed traits for loop tests over HTTP: it answers "{@code <name> ran with <arguments>}" and
 * remembers the arguments of every execution, so a test can prove what ran and with what.
 */
final class StubTool implements Tool {
    final List<ObjectNode> executed = Collections.synchronizedList(new ArrayList<>());
    private final String name;
    private final ToolEffect effect;
    private final DataClass dataClass;
    private final String group;
    private final ObjectNode schema;

    /** @param properties the names of the tool's string arguments, all optional */
    StubTool(String name, ToolEffect effect, DataClass dataClass, String group, String... properties) {
        this.name = name;
        this.effect = effect;
        this.dataClass = dataClass;
        this.group = group;
        this.schema = JsonNodeFactory.instance.objectNode().put("type", "object");
        ObjectNode declared = schema.putObject("properties");
        for (String property : properties) {
            declared.putObject(property).put("type", "string");
        }
        schema.put("additionalProperties", false);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return "Test tool " + name + ".";
    }

    @Override
    public ObjectNode argumentSchema() {
        return schema.deepCopy();
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
    public ToolResult execute(ToolCallRequest request) {
        executed.add(request.arguments());
        return ToolResult.ok(name + " ran with " + request.arguments());
    }
}
