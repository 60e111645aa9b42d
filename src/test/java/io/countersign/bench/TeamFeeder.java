package io.countersign.bench;

import io.countersign.engine.Actor;
import io.countersign.engine.state.RunStatus;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.StoreLocation;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Queues the scripted agent's runs for the workers: either enough that a given number of new runs always waits
 * for a worker (the workers never idle), or at a steady rate.
 */
final class TeamFeeder implements AutoCloseable {
    private final CountersignRuntime runtime;
    private final Connection bare;
    private final String schema;
    private final String agent;
    private final Thread thread;
    private volatile int backlog;
    private volatile double perSecond;
    private volatile boolean stopped;
    private volatile RuntimeException failure;
    private long queued;

    private TeamFeeder(StoreLocation location, Connection bare, String schema, String agent, int backlog) {
        this.runtime = CountersignRuntime.open(location, CountersignRuntime.Work.ADMINISTER, Duration.ZERO);
        this.bare = bare;
        this.schema = schema;
        this.agent = agent;
        this.backlog = backlog;
        this.thread = new Thread(this::feed, "feeder");
    }

    /** Starts queuing so that {@code backlog} new runs always wait; {@code bare} is the feeder's, to count them. */
    static TeamFeeder keepingBacklog(StoreLocation location, Connection bare, String schema, String agent,
                                     int backlog) {
        TeamFeeder feeder = new TeamFeeder(location, bare, schema, agent, backlog);
        feeder.thread.start();
        return feeder;
    }

    /** From now on queues {@code rate} runs a second, whatever waits. */
    void pace(double rate) {
        perSecond = rate;
        backlog = 0;
    }

    private void feed() {
        Actor operator = runtime.localUser();
        long next = System.nanoTime();
        try {
            while (!stopped) {
                if (backlog > 0) {
                    for (long missing = backlog - newRunsQueued(); missing > 0; missing--) {
                        enqueue(operator);
                    }
                    TimeUnit.MILLISECONDS.sleep(5);
                } else {
                    long wait = next - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                    enqueue(operator);
                    next += (long) (1e9 / perSecond);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | SQLException e) {
            failure = new IllegalStateException("queuing runs failed: " + e.getMessage(), e);
        }
    }

    private void enqueue(Actor operator) {
        runtime.execution().enqueue(operator, agent, "Record the team's task #" + ++queued, false);
    }

    private long newRunsQueued() throws SQLException {
        try (Statement statement = bare.createStatement();
             ResultSet row = statement.executeQuery("SELECT count(*) FROM " + schema + ".runs WHERE status = '"
                     + RunStatus.QUEUED.code() + "' AND paused_state IS NULL")) {
            row.next();
            return row.getLong(1);
        }
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        thread.join();
        runtime.close();
        try {
            bare.close();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        if (failure != null) {
            throw failure;
        }
    }
}
