package io.countersign.console.settings;

import io.countersign.console.common.FailureText;
import io.countersign.console.common.Messages;
import io.countersign.console.common.PaneFeedback;
import io.countersign.console.common.PaneState;
import io.countersign.console.common.Tasks;
import io.countersign.engine.Actor;
import io.countersign.engine.tool.ApprovalDeclaration;
import io.countersign.service.SettingPreview;
import io.countersign.service.SettingRequest;
import io.countersign.service.SettingResult;
import io.countersign.service.SettingsService;
import io.countersign.service.ToolSettingView;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The tool settings screen: every tool with its switches, the changes the admin has made but not saved, what
 * they would do (asked of the service each time they change), and the history of recorded changes. A switch
 * never saves by itself: Save sends every pending change at once, Discard puts the switches back.
 */
public final class ToolSettingsViewModel {
    /** How many recorded changes the history lists. */
    static final int HISTORY_SIZE = 100;

    private final SettingsService service;
    private final Actor actor;
    private final Executor executor;
    private final Messages messages;
    private final ZoneId zone;
    private final PaneState pane;

    private final ObservableList<ToolRow> tools = FXCollections.observableArrayList();
    private final ObservableList<HistoryItem> history = FXCollections.observableArrayList();
    private final ObservableList<SettingRequest> pending = FXCollections.observableArrayList();
    /** The server declarations the admin has set and not saved, by server. */
    private final Map<String, Boolean> serverDeclarations = new LinkedHashMap<>();
    private final ObservableList<String> pendingLines = FXCollections.observableArrayList();
    private final ObservableList<String> effectLines = FXCollections.observableArrayList();
    private final ObservableList<String> refusals = FXCollections.observableArrayList();
    private final ReadOnlyBooleanWrapper previewing = new ReadOnlyBooleanWrapper();
    private final BooleanBinding canSave;
    /** Counts the pending sets asked about, so that a late preview of an older set is dropped. */
    private long previewRound;
    /** Set while the switches are put back or synchronised, so that this does not count as the admin's change. */
    private boolean adjusting;

    public ToolSettingsViewModel(SettingsService service, Actor actor, Executor executor, Messages messages,
                                 ZoneId zone) {
        this.service = Objects.requireNonNull(service, "service");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.zone = Objects.requireNonNull(zone, "zone");
        this.pane = new PaneState(executor, messages);
        canSave = Bindings.createBooleanBinding(() -> !pending.isEmpty() && refusals.isEmpty() && !previewing.get()
                && !pane.isBusy(), pending, refusals, previewing, pane.busyProperty());
    }

    /**
     * Loads the tools and the history each time the screen comes into view. Changes not saved yet survive
     * leaving the screen: the tools are not reloaded under them.
     */
    public void show() {
        if (pending.isEmpty()) {
            loadTools();
        }
        loadHistory();
    }

    private void loadTools() {
        pane.problem("");
        pane.read(() -> service.tools(actor), this::showTools, "settings.loadFailed");
        loadHistory();
    }

    private void loadHistory() {
        pane.read(() -> service.history(actor, HISTORY_SIZE), found -> history.setAll(found.stream()
                .map(change -> HistoryItem.of(change, messages, zone)).toList()), "settings.historyFailed");
    }

    private void showTools(List<ToolSettingView> views) {
        List<ToolRow> rows = views.stream().map(view -> new ToolRow(view, yesNo(view.runsUnattended()))).toList();
        rows.forEach(row -> {
            row.enabledProperty().addListener((o, was, now) -> switched(row));
            row.approvalBoundProperty().addListener((o, was, now) -> {
                approvalSwitched(row);
                switched(row);
            });
            row.followsServerProperty().addListener((o, was, now) -> switched(row));
        });
        tools.setAll(rows);
        updatePending();
    }

    private void switched(ToolRow row) {
        if (adjusting) {
            return;
        }
        pane.status("");
        updatePending();
    }

    /**
     * Switching a remote tool's approval declares that tool by itself; its server's declaration and its other
     * tools stay as they are.
     */
    private void approvalSwitched(ToolRow row) {
        if (!adjusting && row.isRemote()) {
            adjust(() -> row.followsServerProperty().set(false));
        }
    }

    /**
     * Declares a server (once saved): its tools without a declaration of their own follow it, and their switches
     * show it; a tool declared by itself keeps its own.
     */
    public void declareServer(String server, boolean approvalBound) {
        serverDeclarations.put(server, approvalBound);
        adjust(() -> tools.stream().filter(row -> server.equals(row.saved().server()))
                .filter(row -> row.followsServerProperty().get())
                .forEach(row -> row.approvalBoundProperty().set(approvalBound)));
        pane.status("");
        updatePending();
    }

    /**
     * Takes a remote tool's own declaration away (once saved): it follows its server's declaration again, and its
     * switch shows what that declaration says.
     */
    public void followServer(ToolRow row) {
        if (!row.isRemote() || row.followsServerProperty().get()) {
            return;
        }
        adjust(() -> row.approvalBoundProperty().set(serverDeclarations.getOrDefault(row.saved().server(),
                row.saved().serverDeclaration().approvalBound())));
        row.followsServerProperty().set(true);
    }

    private void adjust(Runnable change) {
        adjusting = true;
        try {
            change.run();
        } finally {
            adjusting = false;
        }
    }

    /** The requests the switches amount to: the servers' declarations first, then the tools in table order. */
    private List<SettingRequest> requests() {
        List<SettingRequest> requests = new ArrayList<>();
        serverDeclarations.forEach((server, bound) -> {
            boolean saved = tools.stream().filter(row -> server.equals(row.saved().server())).findFirst()
                    .map(row -> row.saved().serverDeclaration() == ApprovalDeclaration.of(bound)).orElse(false);
            if (!saved) {
                requests.add(new SettingRequest.ServerApprovalBound(server, bound));
            }
        });
        for (ToolRow row : tools) {
            ToolSettingView saved = row.saved();
            if (row.enabledProperty().get() != saved.enabled()) {
                requests.add(new SettingRequest.ToolEnabled(saved.name(), row.enabledProperty().get()));
            }
            boolean bound = row.approvalBoundProperty().get();
            if (row.isRemote()) {
                declaration(row).ifPresent(requests::add);
            } else if (bound != saved.approvalBound()) {
                requests.add(new SettingRequest.ToolApprovalBound(saved.name(), bound));
            }
        }
        return requests;
    }

    /** A remote tool's declaration as switched: its own (new or changed), or back to its server's. */
    private static Optional<SettingRequest> declaration(ToolRow row) {
        ToolSettingView saved = row.saved();
        if (row.followsServerProperty().get()) {
            return row.followsServerSaved() ? Optional.empty() : Optional.of(new SettingRequest.ToolDeclaration(
                    saved.name(), ApprovalDeclaration.NOT_DECLARED));
        }
        ApprovalDeclaration own = ApprovalDeclaration.of(row.approvalBoundProperty().get());
        boolean unchanged = !row.followsServerSaved() && own == saved.declaration().declaration();
        return unchanged ? Optional.empty() : Optional.of(new SettingRequest.ToolDeclaration(saved.name(), own));
    }

    private void updatePending() {
        List<SettingRequest> requests = requests();
        pending.setAll(requests);
        pendingLines.setAll(requests.stream().map(this::describe).toList());
        long round = ++previewRound;
        if (requests.isEmpty()) {
            showPreview(null);
            previewing.set(false);
            return;
        }
        previewing.set(true);
        Tasks.create(() -> service.preview(actor, requests))
                .onSuccess(preview -> {
                    if (round == previewRound) {
                        previewing.set(false);
                        showPreview(preview);
                    }
                })
                .onError(failure -> {
                    if (round == previewRound) {
                        previewing.set(false);
                        showPreview(null);
                        refusals.setAll(messages.get("settings.previewFailed", FailureText.of(failure)));
                    }
                })
                .runOnce(executor);
    }

    private void showPreview(SettingPreview preview) {
        if (preview == null) {
            effectLines.clear();
            refusals.clear();
            tools.forEach(row -> row.setUnattended(yesNo(row.saved().runsUnattended())));
            return;
        }
        refusals.setAll(preview.refusals());
        List<String> lines = new ArrayList<>();
        if (!preview.joinUnattended().isEmpty()) {
            lines.add(messages.get("settings.preview.join", String.join(", ", preview.joinUnattended()),
                    preview.joinUnattended().size()));
        }
        if (!preview.deniedJoining().isEmpty()) {
            lines.add(messages.get("settings.preview.deniedJoining", String.join(", ", preview.deniedJoining()),
                    preview.deniedJoining().size()));
        }
        if (!preview.leaveUnattended().isEmpty()) {
            lines.add(messages.get("settings.preview.leave", String.join(", ", preview.leaveUnattended()),
                    preview.leaveUnattended().size()));
        }
        if (preview.joinUnattended().isEmpty() && preview.leaveUnattended().isEmpty()) {
            lines.add(messages.get("settings.preview.unattendedSame"));
        }
        lines.add(calls(preview.calls()));
        effectLines.setAll(lines);
        tools.forEach(row -> {
            String name = row.saved().name();
            boolean now = row.saved().runsUnattended();
            boolean changes = preview.joinUnattended().contains(name) || preview.leaveUnattended().contains(name);
            row.setUnattended(changes ? messages.get("settings.unattended.change", yesNo(now), yesNo(!now))
                    : yesNo(now));
        });
    }

    private String calls(SettingPreview.CallImpact calls) {
        if (calls.sampled() == 0) {
            return messages.get("settings.preview.noCalls");
        }
        SettingPreview.CallCounts before = calls.before();
        SettingPreview.CallCounts after = calls.after();
        if (before.equals(after)) {
            return messages.get("settings.preview.callsSame", calls.sampled());
        }
        String key = before.refused() == 0 && after.refused() == 0 ? "settings.preview.calls"
                : "settings.preview.callsRefused";
        return messages.get(key, calls.sampled(), after.ran(), before.ran(), after.paused(), before.paused(),
                after.refused(), before.refused());
    }

    private String describe(SettingRequest request) {
        if (request instanceof SettingRequest.ToolEnabled enabled) {
            return messages.get(enabled.enabled() ? "settings.pending.enable" : "settings.pending.disable",
                    enabled.tool());
        }
        if (request instanceof SettingRequest.ToolApprovalBound bound) {
            return messages.get(bound.approvalBound() ? "settings.pending.approval" : "settings.pending.noApproval",
                    bound.tool());
        }
        if (request instanceof SettingRequest.ToolDeclaration declared) {
            return messages.get("settings.pending.tool." + declared.declaration().name(), declared.tool());
        }
        SettingRequest.ServerApprovalBound server = (SettingRequest.ServerApprovalBound) request;
        if (!server.approvalBound()) {
            return messages.get("settings.pending.serverNoApproval", server.server());
        }
        return messages.get(undeclared(server.server()) ? "settings.pending.serverDeclared"
                : "settings.pending.serverApproval", server.server());
    }

    private boolean undeclared(String server) {
        return tools.stream().anyMatch(row -> server.equals(row.saved().server())
                && row.saved().serverDeclaration() == ApprovalDeclaration.NOT_DECLARED);
    }

    /** Saves every pending change at once; when the service refuses any, nothing is saved and it says why. */
    public void save() {
        if (!canSave.get()) {
            return;
        }
        List<SettingRequest> requests = List.copyOf(pending);
        pane.change(() -> service.change(actor, requests), result -> {
            if (result instanceof SettingResult.Refused refused) {
                refusals.setAll(refused.reasons());
                return;
            }
            pane.status(messages.get("settings.saved", ((SettingResult.Saved) result).changes().size()));
            serverDeclarations.clear();
            loadTools();
            loadHistory();
        }, pane.failing("settings.saveFailed"));
    }

    /** Puts every switch back to the settings in force. */
    public void discard() {
        serverDeclarations.clear();
        adjust(() -> tools.forEach(ToolRow::reset));
        pane.status("");
        updatePending();
    }

    private String yesNo(boolean value) {
        return messages.get(value ? "settings.yes" : "settings.no");
    }

    /** Every tool, local and remote, in registration order. */
    public ObservableList<ToolRow> tools() {
        return tools;
    }

    /** The recorded admin changes, newest first. */
    public ObservableList<HistoryItem> history() {
        return history;
    }

    /** The changes the switches amount to and Save would send; empty when they match the settings in force. */
    public ObservableList<SettingRequest> pending() {
        return pending;
    }

    /** The pending changes in words, one line each ("web_fetch no longer needs approval"). */
    public ObservableList<String> pendingLines() {
        return pendingLines;
    }

    /** What the pending changes would do: the unattended set, and the recent calls. */
    public ObservableList<String> effectLines() {
        return effectLines;
    }

    /** Why the service refuses some of the pending changes; Save waits until there are none. */
    public ObservableList<String> refusals() {
        return refusals;
    }

    /** Whether the service is working out what the pending changes would do. */
    public ReadOnlyBooleanProperty previewingProperty() {
        return previewing.getReadOnlyProperty();
    }

    public BooleanBinding canSaveProperty() {
        return canSave;
    }

    /** The problem, the status and whether a change is under way. */
    public PaneFeedback feedback() {
        return pane;
    }
}
