package io.countersign.engine.tool;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * A tool as the model is told about it: name, description and argument schema. Immutable, so that one made when
 * the tool is registered serves every round ({@link ToolRegistry#spec}).
 */
public record ToolSpec(String name, String description, ObjectNode parameters) {
    public ToolSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        parameters = Objects.requireNonNull(parameters, "parameters").deepCopy();
    }

    @Override
    public ObjectNode parameters() {
        return parameters.deepCopy();
    }

    public static ToolSpec of(Tool tool) {
        return new ToolSpec(tool.name(), tool.description(), tool.argumentSchema());
    }
}
