package io.countersign.service.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.port.RunRepository;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.run.AgentConfiguration;
import io.countersign.engine.run.RunStatus;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.invocation.ToolExecutionContext;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.RunLease;
import io.countersign.engine.run.RunOutcome;
import io.countersign.engine.run.RunRequest;
import io.countersign.engine.run.ToolLoop;
import io.countersign.service.HostRunDecisions;
import java.time.Clock;
import java.util.Locale;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One host connection to a gateway, driven as one run of the profile: the run's first stretch starts with the
 * host's first call and lasts as long as the host is connected. A call that needs a person pauses the run as a card
 * in every inbox; the decision, taken in any process, is carried out here, where the host waits for it.
 */
public final class GatewaySession implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(GatewaySession.class.getName());
    private static final Duration POLL = Duration.ofMillis(200);

    private final Actor actor;
    private final AgentConfiguration profile;
    private final String host;
    private final HostTurns turns;
    private final ToolLoop loop;
    private final HostRunDecisions decisions;
    private final RunRepository repository;
    private final CompletableFuture<String> runId = new CompletableFuture<>();
    private final CountDownLatch ended = new CountDownLatch(1);
    private final Object wake = new Object();
    private volatile Thread driver;

    private final Clock clock;
    private final IdGenerator ids;
    private final Locale locale;

    GatewaySession(Actor actor, AgentConfiguration profile, String host, HostTurns turns, ToolLoop loop,
                   HostRunDecisions decisions, RunRepository repository, Clock clock,
                   IdGenerator ids, Locale locale) {
        this.clock = clock;
        this.ids = ids;
        this.locale = locale;
        this.actor = actor;
        this.profile = profile;
        this.host = host;
        this.turns = turns;
        this.loop = loop;
        this.decisions = decisions;
        this.repository = repository;
    }

    /**
     * Asks for a tool call as the host did, and waits until it is answered: at once for a call that needs nobody,
     * after a person's decision (or the deadline's fallback) for one that waits as a card.
     *
     * @param progress told every {@code every} while the call waits, so that the host does not time out
     * @throws IllegalStateException when the run ended or the host's connection closed before an answer
     */
    public HostAnswer call(String toolName, ObjectNode arguments, Duration every, Consumer<String> progress)
            throws InterruptedException {
        CompletableFuture<HostAnswer> answer = turns.submit(toolName, arguments);
        startOnce();
        while (true) {
            try {
                return answer.get(every.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException waiting) {
                progress.accept(waitingMessage());
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
            }
        }
    }

    /** The id of this connection's run, once the host's first call started it. */
    public Optional<String> runId() {
        return Optional.ofNullable(runId.getNow(null));
    }

    /** The gateway profile this connection's run follows. */
    public AgentConfiguration profile() {
        return profile;
    }

    private String waitingMessage() {
        return runId().flatMap(repository::find).filter(run -> run.status().waiting())
                .map(run -> "waiting for a person's decision on run " + run.runId())
                .orElse("the call is running");
    }

    private synchronized void startOnce() {
        if (driver != null) {
            return;
        }
        driver = new Thread(this::drive, "countersign-gateway-" + profile.name());
        driver.setDaemon(true);
        driver.start();
    }

    /** The run, from the host's first call to its last: a stretch, then each decision carried out here. */
    private void drive() {
        try {
            String id = ids.next();
            runId.complete(id);
            String prompt = "MCP host " + host;
            RunLease lease = repository.create(id, profile.name(), actor.name(), prompt, false, clock.instant());
            RunOutcome outcome = loop.runLoop(RunRequest.of(profile, ToolExecutionContext.of(actor, id, locale),
                    prompt), repository.journal(lease));
            repository.recordOutcome(lease, outcome, clock.instant());
            while (true) {
                StoredRun run = repository.find(id).orElseThrow();
                if (!run.status().waiting() && run.status() != RunStatus.RUNNING) {
                    break;
                }
                if (!turns.hostConnected()) {
                    decisions.endForGoneHost(id, "the MCP host (" + host + ") disconnected while the card waited;"
                            + " nothing was executed, and no decision can run for a caller who is gone");
                    break;
                }
                if (decisions.carryOutHandedBack(id).isEmpty()) {
                    synchronized (wake) {
                        wake.wait(POLL.toMillis());
                    }
                } else {
                        }
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

    /** Something changed in the store: a decision may wait to be carried out. */
    public void poke() {
        synchronized (wake) {
            wake.notifyAll();
        }
    }

    /** The tool as this profile may offer it, if the registry holds it. */
    static boolean candidate(AgentConfiguration profile, Tool tool) {
        return profile.includes(tool.name(), tool.group());
    }

    /** The host disconnected: the run ends, and a card still waiting says why and takes no decision. */
    @Override
    public void close() {
        turns.hostGone();
        poke();
        if (driver != null) {
            try {
                ended.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
