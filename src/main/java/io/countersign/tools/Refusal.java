package io.countersign.tools;

/**
 * An expected reason a built-in tool cannot do what was asked: a bad argument, a path outside the workspace, a
 * missing file. Checked, so every tool must turn it into a failure result; it never leaves the package.
 */
final class Refusal extends Exception {

    Refusal(String message) {
        // the message is the whole point: no stack trace to fill or print
        super(message, null, false, false);
    }
}
