package io.countersign.engine.tool;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * A tool whose traits are fixed when it is made: name, description, argument schema, effect, data class and
 * group. Subclasses add what the tool does ({@link #execute}) and, where it helps a person, a preview.
 */
public abstract class FixedTool implements Tool {
    private final String name;
    private final String description;
    private final ObjectNode argumentSchema;
    private final ToolEffect effect;
    private final DataClass dataClass;
    private final String group;

    protected FixedTool(String name, String description, ObjectNode argumentSchema, ToolEffect effect,
                        DataClass dataClass, String group) {
        this.name = Objects.requireNonNull(name, "name");
        this.description = Objects.requireNonNull(description, "description");
        this.argumentSchema = Objects.requireNonNull(argumentSchema, "argumentSchema").deepCopy();
        this.effect = Objects.requireNonNull(effect, "effect");
        this.dataClass = Objects.requireNonNull(dataClass, "dataClass");
        this.group = Objects.requireNonNull(group, "group");
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String description() {
        return description;
    }

    /** The schema; a copy, so nobody can change what the registry checked. */
    @Override
    public final ObjectNode argumentSchema() {
        return argumentSchema.deepCopy();
    }

    @Override
    public final ToolEffect effect() {
        return effect;
    }

    @Override
    public final DataClass dataClass() {
        return dataClass;
    }

    @Override
    public final String group() {
        return group;
    }
}
