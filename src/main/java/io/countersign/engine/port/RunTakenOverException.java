package io.countersign.engine.port;

/**
 * A write for a run was refused because the writer no longer drives it: the run was taken over (by another
 * process, or by this process's own recovery) or moved on since the writer's {@link RunLease} was taken. The
 * driver must stop at once and execute nothing more; the run's new driver, or a person, carries it on.
 */
public final class RunTakenOverException extends IllegalStateException {
    public RunTakenOverException(String message) {
        super(message);
    }
}
