package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.access.SettingChange;
import io.countersign.engine.port.TelemetrySettings;
import java.util.List;

/**
 * The admin's use cases over tool settings: which tools exist and how they are governed, changing what may be
 * changed, previewing a change before saving it, and the record of every change. Every method checks the acting
 * user's roles and throws {@link NotPermittedException} when they do not allow it; a change that cannot be made
 * is an expected answer, {@link SettingResult.Refused}.
 */
public interface SettingsService {

    /** Every registered tool, in the registry's order (local, then remote by server and name), as the settings in
     * force govern it. */
    List<ToolSettingView> tools(Actor actor);

    /**
     * Makes the changes, or none of them when any is impossible (an unknown tool, the approval of a tool whose
     * approval is fixed, approval on a tool that asks for input). Each change is recorded with who and when.
     */
    SettingResult change(Actor actor, List<SettingRequest> requests);

    /** What the changes would do, without saving anything; impossible changes are listed and left out. */
    SettingPreview preview(Actor actor, List<SettingRequest> requests);

    /** The telemetry export as stored; what a process's {@code OTEL_*} variables set wins over it there. */
    TelemetrySettings telemetry(Actor actor);

    /**
     * Saves the telemetry export, recorded with who and when; every process applies it to the runs it starts from
     * then on, through the store's change feed.
     *
     * @return false when it already was so
     */
    boolean saveTelemetry(Actor actor, TelemetrySettings telemetry);

    /** The admin changes (settings, users and roles), newest first. Supervisors and admins. */
    List<SettingChange> changes(Actor actor, int limit);

    /** {@link #changes} as {@link RecordedChange}s, for callers that do not see the store. */
    default List<RecordedChange> history(Actor actor, int limit) {
        return changes(actor, limit).stream().map(RecordedChange::of).toList();
    }
}
