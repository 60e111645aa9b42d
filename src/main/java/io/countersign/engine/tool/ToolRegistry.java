package io.countersign.engine.tool;

import io.countersign.engine.Names;
import io.countersign.engine.access.ToolApprovalRule;
import io.countersign.engine.access.ToolSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The tools a process knows, in registration order. Registration refuses what can never work: a bad or
 * duplicate name, an argument schema that is not an object, an approval-bound tool that also asks for input.
 * Safe for concurrent use: readers see a consistent snapshot.
 */
public final class ToolRegistry {
    private volatile Map<String, Tool> tools = Map.of();

    public static ToolRegistry of(Tool... tools) {
        ToolRegistry registry = new ToolRegistry();
        for (Tool tool : tools) {
            registry.register(tool);
        }
        return registry;
    }

    public synchronized void register(Tool tool) {
        String name = tool.name();
        if (!Names.isCode(name)) {
            throw new IllegalArgumentException("tool name \"" + name
                    + "\" must match [a-z][a-z0-9_.-]* and be 1 to 64 characters long");
        }
        if (tools.containsKey(name)) {
            throw new IllegalArgumentException("a tool named \"" + name + "\" is already registered");
        }
        if (tool.description() == null || tool.description().isBlank()) {
            throw new IllegalArgumentException("tool \"" + name + "\" needs a description");
        }
        var schema = tool.argumentSchema();
        if (schema == null || !"object".equals(schema.path("type").asText())) {
            throw new IllegalArgumentException("tool \"" + name
                    + "\" must declare an object schema for its arguments (\"type\": \"object\")");
        }
        if (tool.effect() == null || tool.dataClass() == null || tool.group() == null || tool.group().isBlank()) {
            throw new IllegalArgumentException("tool \"" + name + "\" must declare an effect, a data class and a group");
        }
        if (tool instanceof RequiresInput input) {
            if (input.inputFields().isEmpty()) {
                throw new IllegalArgumentException("tool \"" + name + "\" asks for input but declares no fields");
            }
            if (ToolApprovalRule.requiresApproval(tool, ToolSettings.defaults())) {
                throw new IllegalArgumentException("tool \"" + name
                        + "\" both needs approval and asks for typed input; a turn cannot wait for both");
            }
        }
        Map<String, Tool> next = new LinkedHashMap<>(tools);
        next.put(name, tool);
        tools = next;
    }

    /** Removes a tool; calls to it are refused from now on, also in runs that paused before. */
    public synchronized boolean unregister(String name) {
        if (!tools.containsKey(name)) {
            return false;
        }
        Map<String, Tool> next = new LinkedHashMap<>(tools);
        next.remove(name);
        tools = next;
        return true;
    }

    public Optional<Tool> find(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    /** Every registered name, in registration order. */
    public List<String> names() {
        return new ArrayList<>(tools.keySet());
    }

    public List<Tool> tools() {
        return new ArrayList<>(tools.values());
    }
}
