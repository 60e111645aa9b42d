package io.countersign.engine;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The admin's tool settings at one moment: disabled tools and groups, the approval setting of configurable
 * tools, and each remote server's approval declaration (approval-bound unless declared otherwise).
 */
public record ToolSettings(Set<String> disabledTools, Set<String> disabledGroups,
                           Map<String, Boolean> approvalSettings, Map<String, Boolean> serverApprovalBound) {
    private static final ToolSettings DEFAULTS = new ToolSettings(Set.of(), Set.of(), Map.of(), Map.of());

    public ToolSettings {
        disabledTools = Set.copyOf(disabledTools);
        disabledGroups = Set.copyOf(disabledGroups);
        approvalSettings = Map.copyOf(approvalSettings);
        serverApprovalBound = Map.copyOf(serverApprovalBound);
    }

    /** Everything enabled, every configurable tool at its default, every server approval-bound. */
    public static ToolSettings defaults() {
        return DEFAULTS;
    }

    public boolean enabled(Tool tool) {
        return !disabledTools.contains(tool.name()) && !disabledGroups.contains(tool.group());
    }

    /** The approval setting of a configurable tool; its default while no admin has set one. */
    public boolean approvalSetting(ConfigurableApproval tool) {
        return approvalSettings.getOrDefault(tool.name(), tool.approvalByDefault());
    }

    /** The operator's declaration on a server record; a server nobody declared is approval-bound. */
    public boolean serverApprovalBound(String serverName) {
        return serverApprovalBound.getOrDefault(serverName, true);
    }

    public ToolSettings withToolEnabled(String toolName, boolean enabled) {
        Set<String> next = new HashSet<>(disabledTools);
        if (enabled) {
            next.remove(toolName);
        } else {
            next.add(toolName);
        }
        return new ToolSettings(next, disabledGroups, approvalSettings, serverApprovalBound);
    }

    public ToolSettings withGroupEnabled(String group, boolean enabled) {
        Set<String> next = new HashSet<>(disabledGroups);
        if (enabled) {
            next.remove(group);
        } else {
            next.add(group);
        }
        return new ToolSettings(disabledTools, next, approvalSettings, serverApprovalBound);
    }

    public ToolSettings withApprovalSetting(String toolName, boolean approvalBound) {
        Map<String, Boolean> next = new HashMap<>(approvalSettings);
        next.put(toolName, approvalBound);
        return new ToolSettings(disabledTools, disabledGroups, next, serverApprovalBound);
    }

    public ToolSettings withServerApprovalBound(String serverName, boolean approvalBound) {
        Map<String, Boolean> next = new HashMap<>(serverApprovalBound);
        next.put(serverName, approvalBound);
        return new ToolSettings(disabledTools, disabledGroups, approvalSettings, next);
    }
}
