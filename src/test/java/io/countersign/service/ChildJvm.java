package io.countersign.service;

import io.countersign.testing.FastJava;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * A main class of the test classpath in a JVM of its own, started as {@link FastJava} starts children. Standard
 * error goes to a file, shown when the child fails; standard output is read line by line.
 */
final class ChildJvm implements AutoCloseable {
    private final Process process;
    private final BufferedReader output;
    private final Path errors;

    private ChildJvm(Process process, Path errors) {
        this.process = process;
        this.output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.errors = errors;
    }

    /**
     * Runs the main class to its end once, archiving the classes it loads; later children map the archive
     * instead of loading and verifying those classes again. Only the first archiving in a test run does anything.
     */
    static void shareClassesOf(Class<?> main, String... args) {
        FastJava.shareClassesOf(main, args);
    }

    static ChildJvm start(Class<?> main, Path errors, String... args) throws IOException {
        Process process = new ProcessBuilder(FastJava.command(main.getName(), args))
                .redirectError(ProcessBuilder.Redirect.appendTo(errors.toFile()))
                .start();
        return new ChildJvm(process, errors);
    }

    /** Waits for the child to print the given line, failing with its errors if it ends or takes too long. */
    void awaitLine(String expected, Duration timeout) throws Exception {
        awaitLineStartingWith(expected, timeout, expected::equals);
    }

    /**
     * Waits for the child to print a line that starts with the prefix, and returns it; fails with the child's errors
     * if it ends or takes too long.
     */
    String awaitLineStartingWith(String prefix, Duration timeout) throws Exception {
        return awaitLineStartingWith(prefix, timeout, line -> line.startsWith(prefix));
    }

    private String awaitLineStartingWith(String expected, Duration timeout, Predicate<String> fits)
            throws Exception {
        CompletableFuture<String> seen = CompletableFuture.supplyAsync(() -> {
            try {
                for (String line = output.readLine(); line != null; line = output.readLine()) {
                    if (fits.test(line)) {
                        return line;
                    }
                }
                return null;
            } catch (IOException e) {
                return null;
            }
        });
        try {
            String line = seen.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (line == null) {
                throw new AssertionError("the child ended before it printed \"" + expected + "\": " + errors());
            }
            return line;
        } catch (TimeoutException e) {
            throw new AssertionError("the child did not print \"" + expected + "\" within " + timeout + ": "
                    + errors());
        }
    }

    /** Sends a signal by name ({@code STOP}, {@code CONT}) to the child, as {@code kill -NAME} does. */
    void signal(String name) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
        }
    }

    /** Sends one line to the child's standard input. */
    void send(String line) throws IOException {
        OutputStream input = process.getOutputStream();
        input.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        input.flush();
    }

    boolean alive() {
        return process.isAlive();
    }

    /**
     * Starts one child per argument list, lets them all go at once (each says "ready" and waits for "go"), and
     * waits until every one has ended on its own.
     */
    static void raceTogether(Class<?> main, Path errors, Duration timeout, List<List<String>> arguments)
            throws Exception {
        List<ChildJvm> racers = new ArrayList<>();
        try {
            for (List<String> args : arguments) {
                racers.add(start(main, errors, args.toArray(String[]::new)));
            }
            for (ChildJvm racer : racers) {
                racer.awaitLine("ready", timeout);
            }
            for (ChildJvm racer : racers) {
                racer.send("go");
            }
            for (ChildJvm racer : racers) {
                racer.awaitSuccess(timeout);
            }
        } finally {
            for (ChildJvm racer : racers) {
                racer.close();
            }
        }
    }

    /** SIGKILL on Unix: no shutdown hook, no finally block, no flush runs in the child. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** Waits for the child to end on its own; fails with its errors if it fails or takes too long. */
    void awaitSuccess(Duration timeout) throws Exception {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            kill();
            throw new AssertionError("the child did not end within " + timeout + ": " + errors());
        }
        if (process.exitValue() != 0) {
            throw new AssertionError("the child failed with exit code " + process.exitValue() + ": " + errors());
        }
    }

    String errors() throws IOException {
        return Files.exists(errors) ? Files.readString(errors) : "(nothing on standard error)";
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
