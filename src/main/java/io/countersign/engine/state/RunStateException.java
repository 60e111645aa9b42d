package io.countersign.engine.state;

/**
 * A paused state cannot be resumed as asked: it is damaged, it belongs to another run or agent, or the decision
 * does not fit it. Nothing was executed.
 */
public class RunStateException extends RuntimeException {
    public RunStateException(String message) {
        super(message);
    }

    public RunStateException(String message, Throwable cause) {
        super(message, cause);
    }
}
