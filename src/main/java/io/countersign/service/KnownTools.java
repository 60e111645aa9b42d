package io.countersign.service;

import io.countersign.engine.Names;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.RemoteTool;
import io.countersign.engine.tool.RequiresInput;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolRegistry;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The tool groups and tool names a configuration may name: those of the registered tools, and those the store's
 * server records can provide, known without connecting: each record's group, and {@code <server>.<tool>} for any
 * tool of a recorded server (which tools it offers shows only when it is connected).
 */
final class KnownTools {
    private final Set<String> groups = new TreeSet<>();
    private final Set<String> localNames = new TreeSet<>();
    private final Set<String> registeredNames = new TreeSet<>();
    private final Set<String> inputNames = new TreeSet<>();
    private final TreeMap<String, McpServerRecord> servers = new TreeMap<>();

    KnownTools(ToolRegistry registry, List<McpServerRecord> records) {
        for (Tool tool : registry.tools()) {
            groups.add(tool.group());
            registeredNames.add(tool.name());
            if (tool instanceof RequiresInput) {
                inputNames.add(tool.name());
            }
            if (!(tool instanceof RemoteTool)) {
                localNames.add(tool.name());
            }
        }
        for (McpServerRecord record : records) {
            groups.add(record.group());
            servers.put(record.name(), record);
        }
    }

    /** Whether the registered tool of this name asks for typed input. */
    boolean asksForInput(String name) {
        return inputNames.contains(name);
    }

    /** Why a group is unknown, or empty when it is known. */
    Optional<String> groupProblem(String group) {
        return groups.contains(group) ? Optional.empty()
                : Optional.of("\"" + group + "\" is not a known tool group; known: " + String.join(", ", groups));
    }

    /** Why no tool of this name can ever be offered; empty when one is registered or a server record may offer it. */
    Optional<String> toolProblem(String name) {
        if (registeredNames.contains(name)) {
            return Optional.empty();
        }
        int dot = name.indexOf('.');
        if (dot < 0) {
            return Optional.of("\"" + name + "\" is not a known tool; known: " + String.join(", ", localNames)
                    + remoteHint());
        }
        String server = name.substring(0, dot);
        if (!servers.containsKey(server)) {
            return Optional.of("\"" + name + "\" names a tool of server \"" + server + "\", but no server record has"
                    + " that name" + (servers.isEmpty() ? " (there are none)"
                    : "; servers: " + String.join(", ", servers.keySet())));
        }
        if (dot == name.length() - 1 || !Names.isCode(name)) {
            return Optional.of("\"" + name + "\" cannot name a tool of server \"" + server + "\": write " + server
                    + ".<tool>, the tool's name in [a-z0-9_.-], at most " + Names.MAX_CODE_LENGTH + " characters in all");
        }
        return Optional.empty();
    }

    private String remoteHint() {
        return servers.isEmpty() ? ""
                : "; or a tool of a recorded server as <server>.<tool>, servers: "
                + servers.keySet().stream().collect(Collectors.joining(", "));
    }
}
