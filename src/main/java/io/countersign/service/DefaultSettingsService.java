package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.Names;
import io.countersign.engine.access.SettingChange;
import io.countersign.engine.access.ToolApprovalRule;
import io.countersign.engine.access.UnattendedToolFilter;
import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.port.ActorDirectory;
import io.countersign.engine.tool.ApprovalDeclaration;
import io.countersign.engine.tool.RemoteDeclaration;
import io.countersign.engine.tool.ToolSettings;
import io.countersign.engine.port.RecentToolCalls;
import io.countersign.engine.port.TelemetrySettings;
import io.countersign.engine.port.ToolSettingsSource;
import io.countersign.engine.tool.ConfigurableApproval;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.RemoteTool;
import io.countersign.engine.tool.RequiresApproval;
import io.countersign.engine.tool.RequiresInput;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.store.SettingsStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/** The settings use cases over the tool registry and the store. */
public final class DefaultSettingsService implements SettingsService {
    /** How many recorded calls a preview judges. */
    public static final int PREVIEW_SAMPLE = 1000;

    private final ToolRegistry registry;
    private final SettingsStore settings;
    private final RecentToolCalls runs;
    private final Permissions permissions;

    public DefaultSettingsService(ToolRegistry registry, SettingsStore settings, RecentToolCalls runs,
                                  ActorDirectory users) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.runs = Objects.requireNonNull(runs, "runs");
        this.permissions = new Permissions(users);
    }

    @Override
    public List<ToolSettingView> tools(Actor actor) {
        permissions.requireNow(actor, Operation.VIEW_TOOL_SETTINGS);
        return views(settings.current(), settings::declarationOf);
    }

    /**
     * The tools under a settings snapshot; {@code declarations} gives a remote tool's declaration in force, naming
     * its author where it is the store's.
     */
    private List<ToolSettingView> views(ToolSettings snapshot,
                                        BiFunction<String, String, RemoteDeclaration> declarations) {
        UnattendedToolFilter unattended = new UnattendedToolFilter(registry,
                new ToolApprovalRule(ToolSettingsSource.fixed(snapshot)));
        return registry.tools().stream().map(tool -> view(tool, snapshot, declarations, unattended)).toList();
    }

    private static ToolSettingView view(Tool tool, ToolSettings snapshot,
                                        BiFunction<String, String, RemoteDeclaration> declarations,
                                        UnattendedToolFilter unattended) {
        RemoteTool remote = tool instanceof RemoteTool found ? found : null;
        String server = remote == null ? null : remote.serverName();
        // what a remote tool does is not known: its declaration decides, never its effect
        return new ToolSettingView(tool.name(), tool.description(), tool.group(),
                remote == null ? tool.effect() : null, tool.dataClass(),
                server, server == null ? null : snapshot.serverDeclaration(server),
                server == null ? null : declarations.apply(tool.name(), server),
                remote == null ? "" : remote.hints().claims(), snapshot.enabled(tool),
                snapshot.requiresApproval(tool), control(tool), tool instanceof RequiresInput,
                snapshot.enabled(tool) && !unattended.unattended(List.of(tool.name())).isEmpty());
    }

    /** Mirrors the order in which {@link ToolApprovalRule} asks, so the reason given is the one that decides. */
    private static ToolSettingView.ApprovalControl control(Tool tool) {
        if (tool instanceof RequiresApproval) {
            return ToolSettingView.ApprovalControl.MARKER;
        }
        if (tool instanceof RemoteTool) {
            return ToolSettingView.ApprovalControl.REMOTE;
        }
        if (tool.effect() == ToolEffect.WRITE) {
            return ToolSettingView.ApprovalControl.WRITE;
        }
        if (tool instanceof ConfigurableApproval) {
            return ToolSettingView.ApprovalControl.CONFIGURABLE;
        }
        return ToolSettingView.ApprovalControl.NEVER;
    }

    @Override
    public SettingResult change(Actor actor, List<SettingRequest> asked) {
        permissions.requireNow(actor, Operation.CHANGE_TOOL_SETTINGS);
        List<SettingRequest> requests = asked.stream().map(this::normalised).toList();
        List<String> refusals = requests.stream().map(this::refusal).flatMap(Optional::stream).toList();
        if (!refusals.isEmpty()) {
            return new SettingResult.Refused(refusals);
        }
        List<SettingChange> saved = new ArrayList<>();
        for (SettingRequest request : requests) {
            Optional<SettingChange> change = save(request, actor);
            change.ifPresent(saved::add);
        }
        return new SettingResult.Saved(saved);
    }

    /** A remote tool's approval set per tool is its own declaration: one request for it, whichever was asked. */
    private SettingRequest normalised(SettingRequest request) {
        if (request instanceof SettingRequest.ToolApprovalBound bound
                && registry.find(bound.tool()).filter(RemoteTool.class::isInstance).isPresent()) {
            return new SettingRequest.ToolDeclaration(bound.tool(), ApprovalDeclaration.of(bound.approvalBound()));
        }
        return request;
    }

    private Optional<SettingChange> save(SettingRequest request, Actor actor) {
        if (request instanceof SettingRequest.ToolEnabled enabled) {
            return settings.setToolEnabled(enabled.tool(), enabled.enabled(), actor);
        }
        if (request instanceof SettingRequest.ToolApprovalBound bound) {
            return settings.setApprovalSetting(bound.tool(), bound.approvalBound(), actor);
        }
        if (request instanceof SettingRequest.ToolDeclaration declared) {
            return settings.setToolDeclaration(declared.tool(), declared.declaration(), actor);
        }
        SettingRequest.ServerApprovalBound server = (SettingRequest.ServerApprovalBound) request;
        return settings.setServerApprovalBound(server.server(), server.approvalBound(), actor);
    }

    private static ToolSettings apply(SettingRequest request, ToolSettings to) {
        if (request instanceof SettingRequest.ToolEnabled enabled) {
            return to.withToolEnabled(enabled.tool(), enabled.enabled());
        }
        if (request instanceof SettingRequest.ToolApprovalBound bound) {
            return to.withApprovalSetting(bound.tool(), bound.approvalBound());
        }
        if (request instanceof SettingRequest.ToolDeclaration declared) {
            return to.withToolDeclaration(declared.tool(), declared.declaration());
        }
        SettingRequest.ServerApprovalBound server = (SettingRequest.ServerApprovalBound) request;
        return to.withServerApprovalBound(server.server(), server.approvalBound());
    }

    private Optional<String> refusal(SettingRequest request) {
        if (request instanceof SettingRequest.ToolEnabled enabled) {
            return unknownTool(enabled.tool());
        }
        if (request instanceof SettingRequest.ToolApprovalBound bound) {
            return unknownTool(bound.tool())
                    .or(() -> fixedApproval(registry.find(bound.tool()).orElseThrow(), bound.approvalBound()));
        }
        if (request instanceof SettingRequest.ToolDeclaration declared) {
            return unknownTool(declared.tool()).or(() -> registry.find(declared.tool())
                    .filter(tool -> !(tool instanceof RemoteTool))
                    .map(tool -> tool.name() + " is a local tool: only a remote tool is declared; set its approval"
                            + " with: tool set " + tool.name() + " --approval-bound true|false"));
        }
        String server = ((SettingRequest.ServerApprovalBound) request).server();
        return Names.isCode(server) ? Optional.empty() : Optional.of("\"" + server + "\" is not a server name: it"
                + " must match [a-z][a-z0-9_.-]* and be 1 to " + Names.MAX_CODE_LENGTH + " characters long");
    }

    private Optional<String> unknownTool(String name) {
        if (registry.find(name).isPresent()) {
            return Optional.empty();
        }
        if (name.indexOf('.') > 0) {
            // a remote tool's name: say what this server offers here, not every tool there is
            String server = McpServerRecord.serverOf(name);
            List<String> offered = registry.tools().stream()
                    .filter(tool -> tool instanceof RemoteTool remote && remote.serverName().equals(server))
                    .map(Tool::name).toList();
            if (offered.isEmpty()) {
                return Optional.of("no tool is named \"" + name + "\": no tools of a server \"" + server + "\" are"
                        + " imported here (is it added, enabled and reachable? see: countersign servers test "
                        + server + ")");
            }
            return Optional.of("server " + server + " has no tool named \"" + name + "\"; its tools: "
                    + String.join(", ", offered));
        }
        return Optional.of("no tool is named \"" + name + "\"; known tools: " + String.join(", ", registry.names()));
    }

    private static Optional<String> fixedApproval(Tool tool, boolean approvalBound) {
        ToolSettingView.ApprovalControl control = control(tool);
        if (!control.configurable()) {
            return Optional.of("the approval of " + tool.name() + " is fixed (" + control.fixedReason()
                    + "); it cannot be set per tool");
        }
        if (approvalBound && tool instanceof RequiresInput) {
            return Optional.of(tool.name() + " asks for typed input, so it cannot also need approval: a turn cannot"
                    + " wait for both");
        }
        return Optional.empty();
    }

    /**
     * {@inheritDoc}
     *
     * <p>The call counts judge the tool calls recorded in the histories of the most recently updated runs: up to
     * {@value #PREVIEW_SAMPLE} of them, newest first, refused ones included, calls of tools no longer registered
     * left out. Each call is judged by its tool alone, under the settings now and after the change: paused when
     * the tool is approval-bound or asks for input, refused when it is disabled, ran otherwise. Agents' gates
     * and invocation rules are not replayed, so the counts show what the settings themselves change.
     */
    @Override
    public SettingPreview preview(Actor actor, List<SettingRequest> requests) {
        permissions.requireNow(actor, Operation.CHANGE_TOOL_SETTINGS);
        List<String> refusals = new ArrayList<>();
        ToolSettings now = settings.current();
        ToolSettings after = now;
        for (SettingRequest request : requests.stream().map(this::normalised).toList()) {
            Optional<String> refusal = refusal(request);
            if (refusal.isPresent()) {
                refusals.add(refusal.get());
                continue;
            }
            after = apply(request, after);
        }
        Map<String, ToolSettingView> before = byName(views(now, now::declarationOf));
        Map<String, ToolSettingView> changed = byName(views(after, after::declarationOf));
        List<String> joining = names(changed, before, view -> view.runsUnattended());
        List<ToolInvocationObservation> recent = runs.recentCalls(PREVIEW_SAMPLE);
        return new SettingPreview(refusals, joining,
                names(before, changed, view -> view.runsUnattended()),
                names(changed, before, view -> view.approvalBound()),
                names(before, changed, view -> view.approvalBound()),
                impact(recent, before, changed),
                joining.stream().filter(tool -> recent.stream().anyMatch(call -> call.toolName().equals(tool)
                        && call.outcome() == ToolInvocationObservation.Outcome.DENIED)).toList());
    }

    private static SettingPreview.CallImpact impact(List<ToolInvocationObservation> recent,
                                                    Map<String, ToolSettingView> before,
                                                    Map<String, ToolSettingView> after) {
        int sampled = 0;
        int[] now = new int[3];
        int[] then = new int[3];
        for (ToolInvocationObservation call : recent) {
            ToolSettingView was = before.get(call.toolName());
            if (was == null) {
                continue;
            }
            sampled++;
            now[fate(was)]++;
            then[fate(after.get(call.toolName()))]++;
        }
        return new SettingPreview.CallImpact(sampled, new SettingPreview.CallCounts(now[0], now[1], now[2]),
                new SettingPreview.CallCounts(then[0], then[1], then[2]));
    }

    /** 0 paused, 1 ran, 2 refused: the indexes of {@link SettingPreview.CallCounts}' fields. */
    private static int fate(ToolSettingView tool) {
        if (!tool.enabled()) {
            return 2;
        }
        return tool.approvalBound() || tool.asksForInput() ? 0 : 1;
    }

    private static Map<String, ToolSettingView> byName(List<ToolSettingView> views) {
        return views.stream().collect(Collectors.toMap(ToolSettingView::name, Function.identity()));
    }

    /** The tools, in the registry's order, for which {@code property} holds in {@code in} but not in {@code notIn}. */
    private List<String> names(Map<String, ToolSettingView> in, Map<String, ToolSettingView> notIn,
                               Predicate<ToolSettingView> property) {
        return registry.names().stream().filter(name -> property.test(in.get(name))
                && !property.test(notIn.get(name))).toList();
    }

    @Override
    public TelemetrySettings telemetry(Actor actor) {
        permissions.requireNow(actor, Operation.CHANGE_TELEMETRY);
        return settings.telemetry();
    }

    @Override
    public boolean saveTelemetry(Actor actor, TelemetrySettings telemetry) {
        Actor admin = permissions.requireNow(actor, Operation.CHANGE_TELEMETRY);
        return settings.saveTelemetry(Objects.requireNonNull(telemetry, "telemetry"), admin).isPresent();
    }

    @Override
    public List<SettingChange> changes(Actor actor, int limit) {
        permissions.requireNow(actor, Operation.VIEW_SETTING_CHANGES);
        return settings.changes(limit);
    }
}
