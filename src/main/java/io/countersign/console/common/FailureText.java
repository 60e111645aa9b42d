package io.countersign.console.common;

/** A failure in the words the console shows: its message, or its kind when it has none. */
public final class FailureText {
    private FailureText() {
    }

    public static String of(Throwable failure) {
        String message = failure.getMessage();
        return message != null ? message : failure.getClass().getSimpleName();
    }
}
