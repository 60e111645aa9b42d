package io.countersign.store;

import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.grant.Grant;
import io.countersign.engine.grant.GrantScope;
import io.countersign.engine.grant.GrantSpan;
import io.countersign.engine.port.StandingGrants;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The standing grants people made from cards, and the agents whose grants an admin switched off. A grant and its
 * event are written in one transaction; a use is counted where the approval scan found it. Role checks belong to
 * the caller.
 */
public final class GrantStore implements StandingGrants {
    private static final String COLUMNS = "id, agent, tool, scope_kind, scope_value, span, run_id, granted_by,"
            + " granted_at, expires_at, uses, revoked_by, revoked_at";

    private final Database database;

    GrantStore(Database database) {
        this.database = database;
    }

    /** Stores a new grant, with the event that records it. */
    public void create(Grant grant, GovernanceEvent event) {
        database.write("store the grant " + grant.id(), ChangeKind.SETTINGS, connection -> {
            try (NamedStatement insert = NamedStatement.prepare(connection, "INSERT INTO grants (" + COLUMNS
                    + ") VALUES (:id, :agent, :tool, :scopeKind, :scopeValue, :span, :runId, :grantedBy,"
                    + " :grantedAt, :expiresAt, :uses, :revokedBy, :revokedAt)")) {
                insert.set("id", grant.id()).set("agent", grant.agent()).set("tool", grant.tool())
                        .set("scopeKind", grant.scope().kind()).set("scopeValue", grant.scope().value())
                        .set("span", grant.span().code()).set("runId", grant.runId())
                        .set("grantedBy", grant.grantedBy()).set("grantedAt", Nanos.of(grant.grantedAt()))
                        .set("expiresAt", nanos(grant.expiresAt())).set("uses", grant.uses())
                        .set("revokedBy", grant.revokedBy()).set("revokedAt", nanos(grant.revokedAt()))
                        .executeUpdate();
            }
            EventStore.insert(connection, grant.grantedAt(), List.of(event));
            return null;
        });
    }

    /** The grant with this id, revoked or expired ones too. */
    public Optional<Grant> find(String id) {
        return database.read("read the grant " + id, connection -> select(connection, " WHERE id = :id", id)
                .stream().findFirst());
    }

    /** Every grant that has not expired or been revoked at {@code now}, newest first. */
    public List<Grant> list(Instant now) {
        return database.read("read the grants", connection -> select(connection, " ORDER BY granted_at DESC, id",
                null)).stream().filter(grant -> grant.liveAt(now)).toList();
    }

    /**
     * Revokes a live grant, with the event that records it.
     *
     * @return whether a live grant was revoked (false when it was revoked already)
     */
    public boolean revoke(String id, String by, Instant at, GovernanceEvent event) {
        return database.write("revoke the grant " + id, ChangeKind.SETTINGS, connection -> {
            int changed;
            try (NamedStatement update = NamedStatement.prepare(connection, "UPDATE grants SET revoked_by = :by,"
                    + " revoked_at = :at WHERE id = :id AND revoked_at IS NULL")) {
                changed = update.set("by", by).set("at", Nanos.of(at)).set("id", id).executeUpdate();
            }
            if (changed > 0) {
                EventStore.insert(connection, at, List.of(event));
            }
            return changed > 0;
        });
    }

    /** Whether an admin switched this agent's grants off. */
    public boolean switchedOff(String agent) {
        return database.read("read whether the grants of " + agent + " are off", connection -> {
            try (NamedStatement select = NamedStatement.prepare(connection,
                    "SELECT 1 FROM agent_grant_switches WHERE agent = :agent")) {
                try (ResultSet rows = select.set("agent", agent).executeQuery()) {
                    return rows.next();
                }
            }
        });
    }

    /** The agents whose grants an admin switched off, by name. */
    public List<String> switchedOffAgents() {
        return database.read("read the agents whose grants are off", connection -> {
            List<String> agents = new ArrayList<>();
            try (NamedStatement select = NamedStatement.prepare(connection,
                    "SELECT agent FROM agent_grant_switches ORDER BY agent");
                 ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    agents.add(rows.getString(1));
                }
            }
            return agents;
        });
    }

    /**
     * Switches an agent's grants off or back on.
     *
     * @return whether anything changed
     */
    public boolean switchGrants(String agent, boolean on, String by, Instant at) {
        return database.write("switch the grants of " + agent + (on ? " on" : " off"), ChangeKind.SETTINGS,
                connection -> {
                    if (on) {
                        try (NamedStatement delete = NamedStatement.prepare(connection,
                                "DELETE FROM agent_grant_switches WHERE agent = :agent")) {
                            return delete.set("agent", agent).executeUpdate() > 0;
                        }
                    }
                    try (NamedStatement exists = NamedStatement.prepare(connection,
                            "SELECT 1 FROM agent_grant_switches WHERE agent = :agent")) {
                        try (ResultSet rows = exists.set("agent", agent).executeQuery()) {
                            if (rows.next()) {
                                return false;
                            }
                        }
                    }
                    try (NamedStatement insert = NamedStatement.prepare(connection, "INSERT INTO"
                            + " agent_grant_switches (agent, changed_by, changed_at) VALUES (:agent, :by, :at)")) {
                        return insert.set("agent", agent).set("by", by).set("at", Nanos.of(at)).executeUpdate() > 0;
                    }
                });
    }

    @Override
    public List<Grant> live(String agent, String tool, Instant now) {
        // The agent's switch is read in the same statement: a pause that asks for grants runs one, not two.
        return database.read("read the grants of " + agent + " for " + tool, connection -> {
            List<Grant> grants = new ArrayList<>();
            try (NamedStatement select = NamedStatement.prepare(connection, "SELECT " + COLUMNS + " FROM grants"
                    + " WHERE agent = :agent AND tool = :tool AND revoked_at IS NULL"
                    + " AND (expires_at IS NULL OR expires_at > :now)"
                    + " AND NOT EXISTS (SELECT 1 FROM agent_grant_switches s WHERE s.agent = :agent)"
                    + " ORDER BY granted_at, id")) {
                select.set("agent", agent).set("tool", tool).set("now", Nanos.of(now));
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        grants.add(grant(rows));
                    }
                }
            }
            return grants;
        });
    }

    @Override
    public void used(String grantId, Instant at) {
        database.write("count a use of the grant " + grantId, ChangeKind.SETTINGS, connection -> {
            try (NamedStatement update = NamedStatement.prepare(connection,
                    "UPDATE grants SET uses = uses + 1 WHERE id = :id")) {
                return update.set("id", grantId).executeUpdate();
            }
        });
    }

    private static List<Grant> select(Connection connection, String where, String id) throws SQLException {
        List<Grant> grants = new ArrayList<>();
        try (NamedStatement select = NamedStatement.prepare(connection, "SELECT " + COLUMNS + " FROM grants"
                + where)) {
            if (id != null) {
                select.set("id", id);
            }
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    grants.add(grant(rows));
                }
            }
        }
        return grants;
    }

    private static Grant grant(ResultSet row) throws SQLException {
        return new Grant(row.getString("id"), row.getString("agent"), row.getString("tool"),
                GrantScope.of(row.getString("scope_kind"), row.getString("scope_value")),
                GrantSpan.fromCode(row.getString("span")), row.getString("run_id"), row.getString("granted_by"),
                Nanos.toInstant(row.getLong("granted_at")), instant(row, "expires_at"), row.getInt("uses"),
                row.getString("revoked_by"), instant(row, "revoked_at"));
    }

    private static Instant instant(ResultSet row, String column) throws SQLException {
        long value = row.getLong(column);
        return row.wasNull() ? null : Nanos.toInstant(value);
    }

    private static Long nanos(Instant instant) {
        return instant == null ? null : Nanos.of(instant);
    }
}
