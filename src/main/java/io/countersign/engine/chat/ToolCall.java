package io.countersign.engine.chat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/** A call the model asked for: the id it gave the call, the tool's name and the arguments. */
public record ToolCall(String id, String name, ObjectNode arguments) {
    public ToolCall {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(arguments, "arguments");
        arguments = arguments.deepCopy();
    }

    @Override
    public ObjectNode arguments() {
        return arguments.deepCopy();
    }

    public ToolCall withTarget(String toolName, ObjectNode newArguments) {
        return new ToolCall(id, toolName, newArguments);
    }
}
