package io.countersign.console.main;

import io.countersign.console.common.FxmlView;
import io.countersign.engine.Actor;
import io.countersign.service.Operation;
import java.util.Locale;
import java.util.Optional;

/**
 * The places of the sidebar. A section appears only to people whose roles allow its operation (the service
 * refuses it anyway). The inbox and the runs list share the list-and-detail panes; the others are full-width
 * screens of their own.
 */
public enum Section {
    INBOX(Operation.VIEW_INBOX, "fth-inbox", null),
    RUNS(Operation.VIEW_TIMELINE, "fth-list", null),
    DENIALS(Operation.QUERY_EVENTS, "fth-shield-off", FxmlView.DENIALS),
    INSIGHTS(Operation.VIEW_DECISION_STATS, "fth-clock", FxmlView.INSIGHTS),
    SETTINGS(Operation.VIEW_TOOL_SETTINGS, "fth-sliders", FxmlView.TOOL_SETTINGS),
    RULES(Operation.VIEW_TOOL_SETTINGS, "fth-filter", FxmlView.RULES),
    TELEMETRY(Operation.CHANGE_TELEMETRY, "fth-activity", FxmlView.TELEMETRY),
    USERS(Operation.MANAGE_USERS, "fth-users", FxmlView.USERS);

    private final Operation operation;
    private final String icon;
    private final FxmlView screen;

    Section(Operation operation, String icon, FxmlView screen) {
        this.operation = operation;
        this.icon = icon;
        this.screen = screen;
    }

    /** Whether the person's roles let them use this section. */
    public boolean visibleTo(Actor actor) {
        return operation.allowedFor(actor.roles());
    }

    /** The Ikonli literal of the sidebar icon. */
    public String icon() {
        return icon;
    }

    /** The key of the sidebar label in the console's messages. */
    public String labelKey() {
        return "nav." + name().toLowerCase(Locale.ROOT);
    }

    /** The full-width screen of this section; empty for the sections shown in the list and detail panes. */
    public Optional<FxmlView> screen() {
        return Optional.ofNullable(screen);
    }
}
