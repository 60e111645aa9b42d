package io.countersign.service;

/** The acting user's roles do not allow the operation; nothing was changed. */
public class NotPermittedException extends RuntimeException {
    private final String operation;

    public NotPermittedException(String operation, String message) {
        super(message);
        this.operation = operation;
    }

    /** The operation that was refused, such as {@code decide} or {@code changeToolSetting}. */
    public String operation() {
        return operation;
    }
}
