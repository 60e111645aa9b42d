package io.countersign.store;

import io.countersign.engine.port.WebhookOutbox;
import io.countersign.engine.port.WebhookRegistry;
import io.countersign.engine.webhook.CardEvent;
import io.countersign.engine.webhook.CardEventType;
import io.countersign.engine.webhook.Delivery;
import io.countersign.engine.webhook.HookStatus;
import io.countersign.engine.webhook.SecretReference;
import io.countersign.engine.webhook.Webhook;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The admins' webhooks and the outbox of their events (rows queued by {@link OutboxRows} in the transactions of the
 * changes they report). A claim is one conditional update: of several processes claiming at once, each row goes
 * to one of them until its hold ends.
 */
public final class WebhookStore implements WebhookRegistry, WebhookOutbox {
    private static final String NOT_DONE = "delivered_at IS NULL AND gave_up_at IS NULL";
    private static final String FREE = "(claimed_until IS NULL OR claimed_until <= :now)";
    private static final String EVENT_COLUMNS = "id, event_id, hook_id, type, run_id, agent, started_by, tools,"
            + " waiting_for, actor, outcome, deadline, occurred_at, attempts";

    private final Database database;

    WebhookStore(Database database) {
        this.database = database;
    }

    @Override
    public Webhook add(URI url, Set<CardEventType> events, SecretReference secret, boolean slack, String by,
                       Instant at) {
        Webhook hook = new Webhook("wh-" + UUID.randomUUID().toString().substring(0, 8), url, events, secret, slack,
                by, at);
        database.write("add the webhook " + url, ChangeKind.SETTINGS, connection -> {
            try (NamedStatement insert = NamedStatement.prepare(connection, "INSERT INTO webhooks (id, url,"
                    + " events, secret, slack, created_by, created_at)"
                    + " VALUES (:id, :url, :events, :secret, :slack, :by, :at)")) {
                insert.set("id", hook.id()).set("url", url.toString()).set("events", "," + hook.eventList() + ",")
                        .set("secret", secret.toString()).set("slack", slack).set("by", by).set("at", at)
                        .executeUpdate();
            }
            return null;
        });
        return hook;
    }

    @Override
    public boolean remove(String id) {
        return database.write("remove the webhook " + id, ChangeKind.SETTINGS, connection -> {
            try (NamedStatement outbox = NamedStatement.prepare(connection,
                    "DELETE FROM webhook_outbox WHERE hook_id = :id");
                 NamedStatement hook = NamedStatement.prepare(connection, "DELETE FROM webhooks WHERE id = :id")) {
                outbox.set("id", id).executeUpdate();
                return hook.set("id", id).executeUpdate() > 0;
            }
        });
    }

    @Override
    public List<HookStatus> list() {
        return database.read("list the webhooks", connection -> {
            List<HookStatus> hooks = new ArrayList<>();
            try (NamedStatement select = NamedStatement.prepare(connection, "SELECT h.*,"
                    + " (SELECT COUNT(*) FROM webhook_outbox o WHERE o.hook_id = h.id AND o.delivered_at IS NULL"
                    + " AND o.gave_up_at IS NULL) AS pending,"
                    + " (SELECT COUNT(*) FROM webhook_outbox o WHERE o.hook_id = h.id AND o.gave_up_at IS NOT NULL)"
                    + " AS failed FROM webhooks h ORDER BY h.created_at, h.id");
                 ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    hooks.add(new HookStatus(hook(rows), null, null, null, rows.getLong("pending"),
                            rows.getLong("failed")));
                }
            }
            List<HookStatus> withLast = new ArrayList<>();
            for (HookStatus each : hooks) {
                withLast.add(lastAttempt(connection, each));
            }
            return withLast;
        });
    }

    private static HookStatus lastAttempt(Connection connection, HookStatus status) throws SQLException {
        try (NamedStatement select = NamedStatement.prepare(connection, "SELECT last_attempt, last_status,"
                + " last_error FROM webhook_outbox WHERE hook_id = :id AND last_attempt IS NOT NULL"
                + " ORDER BY last_attempt DESC, id DESC LIMIT 1")) {
            try (ResultSet row = select.set("id", status.hook().id()).executeQuery()) {
                if (!row.next()) {
                    return status;
                }
                int code = row.getInt("last_status");
                Integer httpStatus = row.wasNull() ? null : code;
                return new HookStatus(status.hook(), Nanos.toInstant(row.getLong("last_attempt")), httpStatus,
                        row.getString("last_error"), status.pending(), status.failed());
            }
        }
    }

    @Override
    public List<Delivery> claim(Instant now, int limit, Duration hold) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, got " + limit);
        }
        // A read first, over the index of what is due: a delivery loop that finds nothing commits nothing, and
        // does not take SQLite's write lock every round.
        if (!anyDue(now)) {
            return List.of();
        }
        return database.write("claim the due webhook events", connection -> {
            Map<String, Webhook> hooks = hooks(connection);
            List<Delivery> claimed = new ArrayList<>();
            try (NamedStatement update = NamedStatement.prepare(connection, "UPDATE webhook_outbox"
                    + " SET claimed_until = :until WHERE id IN (SELECT id FROM webhook_outbox WHERE " + NOT_DONE
                    + " AND next_attempt <= :now AND " + FREE + " ORDER BY next_attempt, id LIMIT :limit"
                    + database.dialect().skipLocked() + ") AND " + NOT_DONE + " AND " + FREE
                    + " RETURNING " + EVENT_COLUMNS)) {
                try (ResultSet rows = update.set("until", now.plus(hold)).set("now", now).set("limit", limit)
                        .executeQuery()) {
                    while (rows.next()) {
                        Webhook hook = hooks.get(rows.getString("hook_id"));
                        if (hook != null) {
                            claimed.add(new Delivery(rows.getLong("id"), hook, event(rows), rows.getInt("attempts")));
                        }
                    }
                }
            }
            claimed.sort((a, b) -> Long.compare(a.id(), b.id()));
            return claimed;
        });
    }

    @Override
    public boolean anyRegistered() {
        return database.read("look for webhooks", connection -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT 1 FROM webhooks LIMIT 1");
                 ResultSet row = select.executeQuery()) {
                return row.next();
            }
        });
    }

    private boolean anyDue(Instant now) {
        return database.read("look for due webhook events", connection -> {
            try (NamedStatement select = NamedStatement.prepare(connection, "SELECT 1 FROM webhook_outbox WHERE "
                    + NOT_DONE + " AND next_attempt <= :now AND " + FREE + " LIMIT 1")) {
                try (ResultSet row = select.set("now", now).executeQuery()) {
                    return row.next();
                }
            }
        });
    }

    @Override
    public void delivered(Delivery delivery, Instant at, int status) {
        attempted(delivery, "delivered_at = :at, last_error = NULL", at, status, null, null);
    }

    @Override
    public void retryAt(Delivery delivery, Instant at, Integer status, String error, Instant next) {
        attempted(delivery, "next_attempt = :next, last_error = :error", at, status, error, next);
    }

    @Override
    public void giveUp(Delivery delivery, Instant at, Integer status, String error) {
        attempted(delivery, "gave_up_at = :at, last_error = :error", at, status, error, null);
    }

    private void attempted(Delivery delivery, String assignments, Instant at, Integer status, String error,
                           Instant next) {
        database.write("record the delivery of webhook event " + delivery.event().id(), connection -> {
            try (NamedStatement update = NamedStatement.prepare(connection, "UPDATE webhook_outbox SET "
                    + assignments + ", attempts = attempts + 1, last_attempt = :at, last_status = :status,"
                    + " claimed_until = NULL WHERE id = :id")) {
                update.set("at", at).set("status", status).set("id", delivery.id());
                if (assignments.contains(":error")) {
                    update.set("error", error);
                }
                if (next != null) {
                    update.set("next", next);
                }
                update.executeUpdate();
            }
            return null;
        });
    }

    private static Map<String, Webhook> hooks(Connection connection) throws SQLException {
        Map<String, Webhook> hooks = new HashMap<>();
        try (NamedStatement select = NamedStatement.prepare(connection, "SELECT * FROM webhooks");
             ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                Webhook hook = hook(rows);
                hooks.put(hook.id(), hook);
            }
        }
        return hooks;
    }

    private static Webhook hook(ResultSet row) throws SQLException {
        Set<CardEventType> events = CardEventType.parseList(row.getString("events").replaceAll("^,|,$", ""));
        return new Webhook(row.getString("id"), URI.create(row.getString("url")), events,
                SecretReference.parse(row.getString("secret")), row.getBoolean("slack"), row.getString("created_by"),
                Nanos.toInstant(row.getLong("created_at")));
    }

    private static CardEvent event(ResultSet row) throws SQLException {
        String tools = row.getString("tools");
        long deadline = row.getLong("deadline");
        Instant due = row.wasNull() ? null : Nanos.toInstant(deadline);
        String outcome = row.getString("outcome");
        CardEventType type = CardEventType.fromCode(row.getString("type"));
        return new CardEvent(row.getString("event_id"), type, row.getString("run_id"), row.getString("agent"),
                row.getString("started_by"), tools == null || tools.isEmpty() ? List.of()
                : Arrays.asList(tools.split("\n")), row.getString("waiting_for"), row.getString("actor"),
                type == CardEventType.ESCALATED && outcome != null ? outcome.toLowerCase(Locale.ROOT) : outcome,
                due, Nanos.toInstant(row.getLong("occurred_at")));
    }
}
