package io.countersign.engine.access;

import java.time.Instant;

/**
 * One admin change, as recorded in the same transaction as the change itself.
 *
 * @param id         increases with every change
 * @param time       when it was made
 * @param actor      who made it
 * @param settingKey what changed, as {@code kind:subject} ({@code tool_enabled:web_fetch}, {@code user_roles:ana})
 * @param oldValue   the value before ({@code null}: nothing was set and the setting has no fixed default)
 * @param newValue   the value after
 */
public record SettingChange(long id, Instant time, String actor, String settingKey, String oldValue,
                            String newValue) {
}
