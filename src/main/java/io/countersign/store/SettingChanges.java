package io.countersign.store;

import io.countersign.engine.Actor;
import io.countersign.engine.access.SettingChange;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The {@code setting_changes} table: every admin change, written inside the change's own transaction. */
final class SettingChanges {

    private SettingChanges() {
    }

    static SettingChange record(Connection connection, Instant time, Actor who, String key, String oldValue,
                                String newValue) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO setting_changes"
                + " (changed_at, changed_by, setting_key, old_value, new_value) VALUES (?, ?, ?, ?, ?) RETURNING id")) {
            insert.setLong(1, Nanos.of(time));
            insert.setString(2, who.name());
            insert.setString(3, key);
            insert.setString(4, oldValue);
            insert.setString(5, newValue);
            try (ResultSet keys = insert.executeQuery()) {
                keys.next();
                return new SettingChange(keys.getLong(1), time, who.name(), key, oldValue, newValue);
            }
        }
    }

    static List<SettingChange> newestFirst(Connection connection, int limit) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT id, changed_at, changed_by, setting_key,"
                + " old_value, new_value FROM setting_changes ORDER BY id DESC LIMIT ?")) {
            select.setInt(1, limit);
            try (ResultSet rows = select.executeQuery()) {
                List<SettingChange> changes = new ArrayList<>();
                while (rows.next()) {
                    changes.add(new SettingChange(rows.getLong(1), Nanos.toInstant(rows.getLong(2)), rows.getString(3),
                            rows.getString(4), rows.getString(5), rows.getString(6)));
                }
                return changes;
            }
        }
    }
}
