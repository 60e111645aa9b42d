package io.countersign.service.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.port.EventSink;
import io.countersign.engine.port.HostedRuns;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.RunLease;
import io.countersign.engine.port.RunRepository;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.run.RunRequest;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.CallerChannel;
import io.countersign.engine.tool.Tool;
import io.countersign.service.HostRunDecisions;
import java.time.Clock;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One host connection to a gateway, driven as one run of the profile: the run starts when the host connects and
 * lasts as long as it stays connected. A call that needs a person pauses the run as a card in every inbox; the
 * decision, taken in any process, is carried out here, where the host waits for it.
 */
public final class GatewaySession implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(GatewaySession.class.getName());
    /** How a gateway run's prompt begins, before the host's name and version. */
    private static final String HOST_PROMPT = "MCP host ";

    private final Actor actor;
    private final AgentConfiguration profile;
    private final String host;
    private final HostTurns turns;
    private final ToolLoop loop;
    private final HostRunDecisions decisions;
    private final RunRepository repository;
    private final EventSink events;
    private final IdGenerator ids;
    private final Clock clock;
    private final Locale locale;
    private final String runId;
    private final CountDownLatch ended = new CountDownLatch(1);
    /** A permit for each change of the store (coalesced): the driver looks again after each. */
    private final Semaphore changed = new Semaphore(0);
    private final Thread driver;
    /** The first stretch's lease, for a run this session started; null for one it took over. */
    private RunLease lease;

    private volatile boolean closing;

    private GatewaySession(Actor actor, AgentConfiguration profile, String host, HostTurns turns, ToolLoop loop,
                           HostRunDecisions decisions, RunRepository repository, EventSink events, Clock clock,
                           IdGenerator ids, Locale locale, String runId) {
        this.actor = actor;
        this.profile = profile;
        this.host = host;
        this.turns = turns;
        this.loop = loop;
        this.decisions = decisions;
        this.repository = repository;
        this.events = events;
        this.ids = ids;
        this.clock = clock;
        this.locale = locale;
        this.runId = runId;
        driver = new Thread(this::drive, "countersign-gateway-" + profile.name());
        driver.setDaemon(true);
    }

    /** Records the host's run, running from now on, and starts driving it. */
    static GatewaySession start(Actor actor, AgentConfiguration profile, String host, HostTurns turns, ToolLoop loop,
                                HostRunDecisions decisions, RunRepository repository, EventSink events, Clock clock,
                                IdGenerator ids, Locale locale) {
        GatewaySession session = new GatewaySession(actor, profile, host, turns, loop, decisions, repository, events,
                clock, ids, locale, ids.next());
        session.lease = repository.createHosted(session.runId, profile.name(), actor.name(), session.prompt(),
                clock.instant());
        session.driver.start();
        return session;
    }

    /**
     * Drives a run this gateway took over from a stopped one ({@link HostedRuns#adoptHosted}), whose card waits
     * on a call its host made as a task ({@code turns} hold it): a decision on it is carried out here, and the run
     * ends once the call came to something.
     */
    static GatewaySession adopted(Actor actor, AgentConfiguration profile, StoredRun run, HostTurns turns,
                                  ToolLoop loop, HostRunDecisions decisions, RunRepository repository,
                                  EventSink events, Clock clock, IdGenerator ids, Locale locale) {
        String host = run.prompt().startsWith(HOST_PROMPT) ? run.prompt().substring(HOST_PROMPT.length())
                : run.prompt();
        GatewaySession session = new GatewaySession(actor, profile, host, turns, loop, decisions, repository,
                events, clock, ids, locale, run.runId());
        session.driver.start();
        return session;
    }

    /** The id of the task a host's call made as a task is: the run's and the call's. */
    static String taskId(String runId, String callId) {
        return runId + "/" + callId;
    }

    /**
     * Asks for a tool call as the host did. The future completes when it is answered: at once for a call that needs
     * nobody, after a person's decision (or the deadline's fallback) for one that waits as a card; exceptionally,
     * with the reason, when the run ended or the host's connection closed before an answer. It completes on the
     * thread that has the answer first (the one that read the server's, else the run's), so that no other thread
     * wakes for it. While the call
     * executes, its server's progress, log messages and requests go to the host through {@code caller}.
     */
    public CompletableFuture<HostAnswer> call(String toolName, ObjectNode arguments, CallerChannel caller) {
        return turns.submit(toolName, arguments, caller, false).answer();
    }

    /**
     * Asks for a tool call as {@link #call} does, for a host that made it an MCP task: the task's id names this
     * run and the call's id in it ({@code RUN/CALL}), the call its card and transcript hold.
     */
    public HostTask callAsTask(String toolName, ObjectNode arguments, CallerChannel caller) {
        HostTurns.HostCall call = turns.submit(toolName, arguments, caller, true);
        return new HostTask(taskId(runId, call.call().id()), call.answer());
    }

    /**
     * The host gave up on the call it made with {@code caller}: one still queued is dropped; a card it waits on is
     * claimed away here, as a person's decision would be, and left for this session's driver to carry the run on
     * from; a call decided but not started never starts, as its channel says it is withdrawn.
     */
    public void withdraw(CallerChannel caller) {
        turns.withdraw(caller).ifPresent(call -> {
            if (decisions.withdrawCancelled(runId, call.id())) {
                poke();
            }
        });
    }

    /**
     * The host used a fronted server's resource ({@link EventType#RESOURCE_READ},
     * {@link EventType#RESOURCE_SUBSCRIBED}, {@link EventType#RESOURCE_UNSUBSCRIBED}), prompt
     * ({@link EventType#PROMPT_USED}, {@code detail} its name) or completion ({@link EventType#COMPLETION_ASKED},
     * {@code detail} the prompt's name, if of a prompt): recorded for this run, in the name of the person the gateway
     * serves, without any content.
     */
    public void recordUse(EventType type, String server, String detail) {
        events.record(new GovernanceEvent(ids.next(), clock.instant(), type, null, server, null, runId,
                profile.name(), actor.name(), profile.model().name(), detail));
    }

    /** The id of this connection's run. */
    public String runId() {
        return runId;
    }

    /** The gateway profile this connection's run follows. */
    public AgentConfiguration profile() {
        return profile;
    }

    private String prompt() {
        return HOST_PROMPT + host;
    }

    /** What a call still open waits for, told to the host every so often so that it does not time out. */
    public String waitingMessage() {
        return repository.find(runId).filter(run -> run.status().waiting())
                .map(run -> "waiting for a person's decision on run " + run.runId())
                .orElse("the call is running");
    }

    /** The run, from the host's connection to its end: a stretch, then each decision carried out here. */
    private void drive() {
        try {
            if (lease != null) {
                RunOutcome outcome = loop.runLoop(RunRequest.of(profile, ToolExecutionContext.of(actor, runId,
                        locale), prompt()), repository.hostedJournal(lease));
                repository.recordOutcome(lease, outcome, clock.instant());
            }
            while (carryOutNext()) {
                // each turn carried out one decision, or waited for the store to change
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "the gateway run of " + host + " stopped: " + e.getMessage(), e);
        } finally {
            turns.hostGone();
            ended.countDown();
        }
    }

    /**
     * Carries out the decision left for this gateway, if one is; ends the run if its host went away while it
     * waited; otherwise waits for the store to change.
     *
     * @return false once the run ended
     */
    private boolean carryOutNext() throws InterruptedException {
        StoredRun run = repository.find(runId).orElseThrow();
        // A run whose call's outcome is unknown waits for a person's settling, which may show its card again here.
        if (!run.status().waiting() && run.status() != RunStatus.RUNNING
                && run.status() != RunStatus.OUTCOME_UNKNOWN) {
            return false;
        }
        if (turns.taskOpen()) {
            // A task's card outlives its host's connection; a gateway that stops leaves it for the next to take over.
            if (closing) {
                return false;
            }
        } else if (!turns.hostConnected()) {
            decisions.endForGoneHost(runId, "the MCP host (" + host + ") disconnected while the card waited;"
                    + " nothing was executed, and no decision can run for a caller who is gone");
            return false;
        }
        if (decisions.carryOutHandedBack(runId).isEmpty()) {
            changed.acquire();
            changed.drainPermits();
        }
        return true;
    }

    /** Something changed in the store: a decision may wait to be carried out. */
    public void poke() {
        changed.release();
    }

    /** The tool as this profile may offer it, if the registry holds it. */
    static boolean candidate(AgentConfiguration profile, Tool tool) {
        return profile.includes(tool.name(), tool.group());
    }

    /**
     * The host disconnected: the run ends, and a card still waiting says why and takes no decision; but a card
     * waiting on a call made as a task is left waiting, for a gateway of the same profile to take over.
     */
    @Override
    public void close() {
        closing = true;
        turns.hostGone();
        poke();
        try {
            ended.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
