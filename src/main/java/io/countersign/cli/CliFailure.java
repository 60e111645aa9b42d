package io.countersign.cli;

/** A command ends with this exit code and this one-line message, such as a refused decision. */
final class CliFailure extends RuntimeException {
    private final int exitCode;

    CliFailure(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    static CliFailure refused(String message) {
        return new CliFailure(Cli.REFUSED, message);
    }

    static CliFailure usage(String message) {
        return new CliFailure(Cli.BAD_USAGE, message);
    }

    int exitCode() {
        return exitCode;
    }
}
