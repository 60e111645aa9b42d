package io.countersign.engine.tool;

import io.countersign.engine.Names;
import io.countersign.engine.tool.ToolSettings;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The tools a process knows, in offering order: local tools in registration order, then remote tools by server
 * and name, so the order does not depend on which server happened to connect first and two processes offer a
 * model the same request. Registration refuses what can never work: a bad or
 * duplicate name, an argument schema that is not an object, an approval-bound tool that also asks for input.
 * Safe for concurrent use: readers see a consistent snapshot.
 */
public final class ToolRegistry {
    private volatile Map<String, Tool> tools = Map.of();
    /** Each tool as a model is told about it, made once: a round offers every tool, and a schema is a tree. */
    private volatile Map<String, ToolSpec> specs = Map.of();

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
            if (ToolSettings.defaults().requiresApproval(tool)) {
                throw new IllegalArgumentException("tool \"" + name
                        + "\" both needs approval and asks for typed input; a turn cannot wait for both");
            }
        }
        Map<String, Tool> next = new LinkedHashMap<>(tools);
        next.put(name, tool);
        Map<String, ToolSpec> nextSpecs = new HashMap<>(specs);
        nextSpecs.put(name, ToolSpec.of(tool));
        specs = nextSpecs;
        tools = inOfferingOrder(next);
    }

    private static Map<String, Tool> inOfferingOrder(Map<String, Tool> registered) {
        Map<String, Tool> ordered = new LinkedHashMap<>();
        registered.values().stream().filter(tool -> !(tool instanceof RemoteTool))
                .forEach(tool -> ordered.put(tool.name(), tool));
        registered.values().stream().filter(RemoteTool.class::isInstance).map(RemoteTool.class::cast)
                .sorted(Comparator.comparing(RemoteTool::serverName).thenComparing(Tool::name))
                .forEach(tool -> ordered.put(tool.name(), tool));
        return ordered;
    }

    /** Removes a tool; calls to it are refused from now on, also in runs that paused before. */
    public synchronized boolean unregister(String name) {
        if (!tools.containsKey(name)) {
            return false;
        }
        Map<String, Tool> next = new LinkedHashMap<>(tools);
        next.remove(name);
        tools = next;
        Map<String, ToolSpec> nextSpecs = new HashMap<>(specs);
        nextSpecs.remove(name);
        specs = nextSpecs;
        return true;
    }

    public Optional<Tool> find(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    /** The registered tool's spec, as {@link ToolSpec#of} makes it. */
    public Optional<ToolSpec> spec(String name) {
        return Optional.ofNullable(specs.get(name));
    }

    /** Every registered name, in offering order. */
    public List<String> names() {
        return new ArrayList<>(tools.keySet());
    }

    /** Every registered tool, in offering order. */
    public List<Tool> tools() {
        return new ArrayList<>(tools.values());
    }
}
