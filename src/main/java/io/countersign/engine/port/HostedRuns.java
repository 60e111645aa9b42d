package io.countersign.engine.port;

import java.time.Instant;
import java.util.Set;

/**
 * Port: the runs of MCP hosts connected to a gateway process, which alone holds a host's connection: such a run is
 * recorded and journalled by its gateway, and once the gateway stops it waits for nobody: it ends, or the next
 * gateway of its profile adopts it.
 */
public interface HostedRuns {
    /**
     * Records a new run of an MCP host connected to this process's gateway, as {@link RunStretches#create} does:
     * this process holds the host's connection for the run's whole life, so only it can carry out a decision on
     * the run, and once it stops the run waits for nobody ({@link #endWithoutGateway}).
     */
    RunLease createHosted(String runId, String agent, String initiator, String prompt, Instant at);

    /**
     * How the id of a gateway run's call begins when its host made it an MCP task: a card waiting on it is left
     * for the next gateway of the profile when its own stops ({@link StoredRun#waitsOnHostTask}).
     */
    String TASK_CALL = "task-";

    /** Why nothing can be done for a gateway run whose gateway process stopped: its card's notice and its end. */
    String GATEWAY_STOPPED = "the gateway holding this host's connection stopped; nothing can be carried out";

    /** The unfinished gateway runs whose gateway process stopped, by id: nothing can answer their hosts. */
    Set<String> withoutGateway();

    /**
     * Ends a gateway run whose gateway process stopped: failed with reason {@code gateway_stopped}, nothing of its
     * card or committed decision executed; a call that had started executing is flagged "outcome unknown" instead,
     * as {@link UnfinishedRuns#reconcile} flags any run's.
     *
     * @return true when this ended or flagged the run; false when its gateway is live or the run moved on
     */
    boolean endWithoutGateway(String runId, Instant at);

    /**
     * Makes a gateway run whose gateway process stopped, and whose card still waits, this process's: it is no
     * longer without its gateway, and only this process carries out a decision on it from now on. For a gateway
     * that serves the same profile as the same person, and takes over the MCP tasks its predecessor left waiting.
     *
     * @return true when the run is this process's now; false when its gateway is live, or it moved on (ended, or
     *         decided)
     */
    boolean adoptHosted(String runId, Instant at);

    /**
     * The journal of a gateway run's driver ({@link #createHosted}), whose intents need not wait for the disk:
     * nothing ever resumes such a run, so no intent keeps a call from being sent twice; it only flags a call whose
     * gateway stopped mid-call, and a stopped process leaves it written (only a crash of the machine can lose it).
     */
    ExecutionJournal hostedJournal(RunLease lease);
}
