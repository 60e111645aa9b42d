package io.countersign.store;

import io.countersign.engine.decision.Decision;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.port.ApprovalProgress;
import io.countersign.engine.port.ApprovalQuorums;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.run.RunLifecycle;
import io.countersign.engine.state.RunStatus;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The approvals a card collects before its last one, in the {@code approvals} table. Each is counted in one
 * transaction over the run's locked row (SQLite's IMMEDIATE transaction, PostgreSQL's {@code FOR UPDATE}), so of
 * several people approving at once in several processes each counts once, in some order, and the approval that
 * completes the count is the only one told so; that one is then claimed as the decision.
 */
final class ApprovalRows implements ApprovalQuorums {
    private static final String SELECT_APPROVALS = "SELECT approved_by, approved_at, verdicts FROM approvals"
            + " WHERE run_id = :runId AND digest = :digest ORDER BY approved_at, id";

    private final Database database;

    ApprovalRows(Database database) {
        this.database = database;
    }

    @Override
    public Tally approve(Decision.Approval approval, int required, GovernanceEvent event) {
        String runId = approval.runId();
        return database.writeIf("record " + approval.decidedBy() + "'s approval of run " + runId,
                ChangeKind.DECISION, DecisionResult.PartlyApproved.class::isInstance, connection -> {
                    int pauseNumber;
                    try (NamedStatement select = NamedStatement.prepare(connection, "SELECT status, digest,"
                            + " pause_number, outcome_unknown FROM runs r WHERE r.id = :runId"
                            + database.dialect().lockRowsOf("r"))) {
                        try (ResultSet row = select.set("runId", runId).executeQuery()) {
                            if (!row.next()) {
                                return new DecisionResult.NotWaiting(runId, null);
                            }
                            RunStatus status = RunRows.status(row.getString("status"),
                                    row.getString("outcome_unknown"));
                            // Only a card waiting for approval counts approvals; a claimed run is not waiting.
                            if (!RunLifecycle.table().allows(RunLifecycle.State.of(status, false, false),
                                    RunLifecycle.Event.APPROVAL_COUNTED)) {
                                return new DecisionResult.NotWaiting(runId, status);
                            }
                            if (!approval.digest().equals(row.getString("digest"))) {
                                return new DecisionResult.Stale(runId, row.getString("digest"));
                            }
                            pauseNumber = row.getInt("pause_number");
                        }
                    }
                    List<Approval> before = approvals(connection, runId, approval.digest());
                    Optional<Approval> own = before.stream()
                            .filter(earlier -> earlier.approvedBy().equals(approval.decidedBy())).findFirst();
                    if (own.isPresent()) {
                        return DecisionResult.NotPermitted.approvedAlready(runId, approval.decidedBy(),
                                own.get().approvedAt(), required);
                    }
                    Optional<Approval> other = before.stream()
                            .filter(earlier -> !earlier.verdicts().equals(approval.verdicts())).findFirst();
                    if (other.isPresent()) {
                        return DecisionResult.NotPermitted.otherVerdicts(runId, other.get());
                    }
                    if (before.size() + 1 >= required) {
                        return new Tally.Last(before);
                    }
                    try (NamedStatement insert = NamedStatement.prepare(connection, "INSERT INTO approvals (run_id,"
                            + " pause_number, digest, approved_by, approved_at, verdicts) VALUES (:runId,"
                            + " :pauseNumber, :digest, :approvedBy, :approvedAt, :verdicts)")) {
                        insert.set("runId", runId).set("pauseNumber", pauseNumber).set("digest", approval.digest())
                                .set("approvedBy", approval.decidedBy()).set("approvedAt", approval.decidedAt())
                                .set("verdicts", RunRows.verdictsToJson(approval.verdicts())).executeUpdate();
                    }
                    EventStore.insert(connection, database.clock().instant(), List.of(event));
                    List<Approval> now = new ArrayList<>(before);
                    now.add(new Approval(approval.decidedBy(), approval.decidedAt(), approval.verdicts()));
                    return new DecisionResult.PartlyApproved(runId, new ApprovalProgress(required, now.stream()
                            .map(kept -> new ApprovalProgress.Approver(kept.approvedBy(), kept.approvedAt()))
                            .toList()));
                });
    }

    @Override
    public List<Approval> approvals(String runId, String digest) {
        return database.read("read the approvals of run " + runId,
                connection -> approvals(connection, runId, digest));
    }

    private static List<Approval> approvals(Connection connection, String runId, String digest) throws SQLException {
        try (NamedStatement select = NamedStatement.prepare(connection, SELECT_APPROVALS)) {
            try (ResultSet rows = select.set("runId", runId).set("digest", digest).executeQuery()) {
                List<Approval> approvals = new ArrayList<>();
                while (rows.next()) {
                    approvals.add(new Approval(rows.getString("approved_by"),
                            Nanos.toInstant(rows.getLong("approved_at")),
                            RunRows.verdictsFromJson(rows.getString("verdicts"))));
                }
                return approvals;
            }
        }
    }
}
