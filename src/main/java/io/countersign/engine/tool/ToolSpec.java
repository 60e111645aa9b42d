package io.countersign.engine.tool;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/** A tool as the model is told about it: name, description and argument schema. */
public record ToolSpec(String name, String description, ObjectNode parameters) {
    public ToolSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(parameters, "parameters");
    }

    public static ToolSpec of(Tool tool) {
        return new ToolSpec(tool.name(), tool.description(), tool.argumentSchema());
    }
}
