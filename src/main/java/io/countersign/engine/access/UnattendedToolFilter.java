package io.countersign.engine.access;

import io.countersign.engine.tool.RequiresInput;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolRegistry;
import java.util.List;
import java.util.Optional;

/**
 * Which tools run with no human pause of either kind: known to the registry, not approval-bound (as
 * {@link ToolApprovalRule} says) and not asking for typed input. It narrows an offered list; it does not decide
 * what may be offered, so a caller without an approval step offers
 * {@code unattended(accessPolicy.filterOfferable(...))}.
 */
public final class UnattendedToolFilter {
    private final ToolRegistry registry;
    private final ToolApprovalRule approvalRule;

    public UnattendedToolFilter(ToolRegistry registry, ToolApprovalRule approvalRule) {
        this.registry = registry;
        this.approvalRule = approvalRule;
    }

    /** The given names, in their order, whose tools run without approval or input. */
    public List<String> unattended(List<String> toolNames) {
        return toolNames.stream().filter(this::runsUnattended).toList();
    }

    private boolean runsUnattended(String name) {
        Optional<Tool> tool = registry.find(name);
        return tool.isPresent() && !(tool.get() instanceof RequiresInput)
                && !approvalRule.requiresApproval(tool.get());
    }
}
