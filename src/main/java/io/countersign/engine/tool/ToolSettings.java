package io.countersign.engine.tool;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The admin's tool settings at one moment: disabled tools and groups, the approval setting of configurable
 * tools, each remote server's approval declaration ({@code serverApprovalBound} holds the declared servers;
 * a server it does not name is not declared, and its tools run without approval), and the remote tools declared
 * by themselves ({@code toolApprovalBound}, by the tool's registry name; a tool it does not name follows its
 * server's declaration).
 */
public record ToolSettings(Set<String> disabledTools, Set<String> disabledGroups,
                           Map<String, Boolean> approvalSettings, Map<String, Boolean> serverApprovalBound,
                           Map<String, Boolean> toolApprovalBound) {
    private static final ToolSettings DEFAULTS = new ToolSettings(Set.of(), Set.of(), Map.of(), Map.of(), Map.of());

    public ToolSettings {
        disabledTools = Set.copyOf(disabledTools);
        disabledGroups = Set.copyOf(disabledGroups);
        approvalSettings = Map.copyOf(approvalSettings);
        serverApprovalBound = Map.copyOf(serverApprovalBound);
        toolApprovalBound = Map.copyOf(toolApprovalBound);
    }

    /** Everything enabled, every configurable tool at its default, no server declared. */
    public static ToolSettings defaults() {
        return DEFAULTS;
    }

    /**
     * The only place that decides whether a tool needs a human approval. In this order: no tool → no; the approval
     * marker → yes; a remote tool → its own declaration, else its server record's (not declared → no, whatever the
     * tool does or its server hints); a write effect → yes; a configurable tool → its admin setting; otherwise no.
     */
    public boolean requiresApproval(Tool tool) {
        if (tool == null) {
            return false;
        }
        if (tool instanceof RequiresApproval) {
            return true;
        }
        if (tool instanceof RemoteTool remote) {
            // judged on the declaration alone: a tool of an undeclared server, not declared itself, runs without one
            return declarationOf(remote.name(), remote.serverName()).approvalBound();
        }
        if (tool.effect() == ToolEffect.WRITE) {
            return true;
        }
        if (tool instanceof ConfigurableApproval configurable) {
            return approvalSetting(configurable);
        }
        return false;
    }

    public boolean enabled(Tool tool) {
        return !disabledTools.contains(tool.name()) && !disabledGroups.contains(tool.group());
    }

    /** The approval setting of a configurable tool; its default while no admin has set one. */
    public boolean approvalSetting(ConfigurableApproval tool) {
        return approvalSettings.getOrDefault(tool.name(), tool.approvalByDefault());
    }

    /** The operator's declaration on a server record. */
    public ApprovalDeclaration serverDeclaration(String serverName) {
        return declarationIn(serverApprovalBound, serverName);
    }

    /** A remote tool's own declaration; {@code NOT_DECLARED} when it has none and follows its server's. */
    public ApprovalDeclaration toolDeclaration(String toolName) {
        return declarationIn(toolApprovalBound, toolName);
    }

    /**
     * The declaration a remote tool is judged on: its own, else its server record's (which may be not declared).
     * It names no one: who declared is the store's record of changes.
     */
    public RemoteDeclaration declarationOf(String toolName, String serverName) {
        ApprovalDeclaration own = toolDeclaration(toolName);
        return own.declared() ? new RemoteDeclaration(own, RemoteDeclaration.Source.TOOL, null)
                : new RemoteDeclaration(serverDeclaration(serverName), RemoteDeclaration.Source.SERVER, null);
    }

    /** Whether a server's tools need approval: only when it is declared approval-bound. */
    public boolean serverApprovalBound(String serverName) {
        return serverDeclaration(serverName).approvalBound();
    }

    public ToolSettings withToolEnabled(String toolName, boolean enabled) {
        Set<String> next = new HashSet<>(disabledTools);
        if (enabled) {
            next.remove(toolName);
        } else {
            next.add(toolName);
        }
        return new ToolSettings(next, disabledGroups, approvalSettings, serverApprovalBound, toolApprovalBound);
    }

    public ToolSettings withGroupEnabled(String group, boolean enabled) {
        Set<String> next = new HashSet<>(disabledGroups);
        if (enabled) {
            next.remove(group);
        } else {
            next.add(group);
        }
        return new ToolSettings(disabledTools, next, approvalSettings, serverApprovalBound, toolApprovalBound);
    }

    public ToolSettings withApprovalSetting(String toolName, boolean approvalBound) {
        Map<String, Boolean> next = new HashMap<>(approvalSettings);
        next.put(toolName, approvalBound);
        return new ToolSettings(disabledTools, disabledGroups, next, serverApprovalBound, toolApprovalBound);
    }

    public ToolSettings withServerApprovalBound(String serverName, boolean approvalBound) {
        return withServerDeclaration(serverName, ApprovalDeclaration.of(approvalBound));
    }

    public ToolSettings withServerDeclaration(String serverName, ApprovalDeclaration declaration) {
        return new ToolSettings(disabledTools, disabledGroups, approvalSettings,
                declaring(serverApprovalBound, serverName, declaration), toolApprovalBound);
    }

    /** Declares a remote tool by itself; {@code NOT_DECLARED} takes its own declaration away. */
    public ToolSettings withToolDeclaration(String toolName, ApprovalDeclaration declaration) {
        return new ToolSettings(disabledTools, disabledGroups, approvalSettings, serverApprovalBound,
                declaring(toolApprovalBound, toolName, declaration));
    }

    /** A declared name maps to whether it is approval-bound; a name not declared has no entry. */
    private static ApprovalDeclaration declarationIn(Map<String, Boolean> declarations, String name) {
        Boolean declared = declarations.get(name);
        return declared == null ? ApprovalDeclaration.NOT_DECLARED : ApprovalDeclaration.of(declared);
    }

    private static Map<String, Boolean> declaring(Map<String, Boolean> declarations, String name,
                                                  ApprovalDeclaration declaration) {
        Map<String, Boolean> next = new HashMap<>(declarations);
        if (declaration.declared()) {
            next.put(name, declaration.approvalBound());
        } else {
            next.remove(name);
        }
        return next;
    }
}
