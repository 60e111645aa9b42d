package io.countersign.service;

import io.countersign.engine.access.SettingChange;
import java.time.Instant;

/**
 * One recorded admin change as a screen shows it: the store's {@link SettingChange} in the service layer's
 * terms, so that screens need not know the store.
 *
 * @param settingKey what changed, as {@code kind:subject} ({@code tool_enabled:web_fetch}, {@code user_roles:ana})
 * @param oldValue   the value before, {@code null} when nothing was set
 */
public record RecordedChange(long id, Instant time, String actor, String settingKey, String oldValue,
                             String newValue) {

    static RecordedChange of(SettingChange change) {
        return new RecordedChange(change.id(), change.time(), change.actor(), change.settingKey(),
                change.oldValue(), change.newValue());
    }
}
