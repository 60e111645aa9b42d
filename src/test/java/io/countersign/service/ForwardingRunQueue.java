package io.countersign.service;

import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.RunClaims;
import io.countersign.engine.port.RunQueue;
import io.countersign.engine.port.StoredRun;
import java.time.Instant;
import java.util.List;

/** A store's queue passed through unchanged; a test overrides the one operation it holds or interleaves. */
class ForwardingRunQueue implements RunQueue {
    private final RunQueue queue;

    ForwardingRunQueue(RunQueue queue) {
        this.queue = queue;
    }

    @Override
    public void enqueue(String runId, String agent, String initiator, String prompt, boolean unattended,
                        Instant at) {
        queue.enqueue(runId, agent, initiator, prompt, unattended, at);
    }

    @Override
    public RunClaims.ClaimResult claimForWorker(Decision decision) {
        return queue.claimForWorker(decision);
    }

    @Override
    public NextRun claimNext(String workerId, Instant leaseExpires, Instant at) {
        return queue.claimNext(workerId, leaseExpires, at);
    }

    @Override
    public boolean renewLease(String runId, String workerId, Instant leaseExpires) {
        return queue.renewLease(runId, workerId, leaseExpires);
    }

    @Override
    public List<StoredRun> recoverAbandoned(Instant at) {
        return queue.recoverAbandoned(at);
    }
}
