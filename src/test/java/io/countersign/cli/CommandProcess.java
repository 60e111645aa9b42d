package io.countersign.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.countersign.testing.FastJava;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real {@code countersign} command in a child process: {@code java -cp <test class path>
 * io.countersign.app.Main ...}, in a folder of its own, with a clean environment.
 */
final class CommandProcess {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long TIMEOUT_SECONDS = 120;

    private final Path folder;
    private final String store;

    CommandProcess(Path folder, String store) {
        this.folder = folder;
        this.store = store;
    }

    /** What one command did. */
    record Result(int exitCode, String out, String err) {
        JsonNode json() {
            try {
                return JSON.readTree(out);
            } catch (IOException e) {
                throw new AssertionError("stdout is not JSON (exit " + exitCode + ", stderr: " + err + "): " + out, e);
            }
        }
    }

    /**
     * Runs the command in this process through {@link Cli#run}, exactly as {@code Main} does but without a
     * child's start-up: for tests of what a command prints rather than of the process around it.
     */
    Result runHere(String... args) {
        List<String> all = new ArrayList<>(List.of("--store", store));
        all.addAll(List.of(args));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = Cli.run(all.toArray(String[]::new), Map.of("COUNTERSIGN_ALLOW_IMPERSONATION", "1"),
                new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(exitCode, out.toString(), err.toString());
    }

    /** Runs {@code countersign --store STORE args...} as the operating-system user. */
    Result run(String... args) {
        return start(Map.of(), args).await();
    }

    /** Runs the command as another user, where the environment allows impersonation. */
    Result runAs(String user, String... args) {
        List<String> all = new ArrayList<>(List.of("--as", user));
        all.addAll(List.of(args));
        return start(Map.of("COUNTERSIGN_ALLOW_IMPERSONATION", "1"), all.toArray(String[]::new)).await();
    }

    /** Starts the command without waiting for it. */
    Running start(Map<String, String> environment, String... args) {
        List<String> command = new ArrayList<>(FastJava.countersign("--store", store));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(folder.toFile());
        builder.environment().remove("COUNTERSIGN_STORE");
        builder.environment().remove("COUNTERSIGN_ALLOW_IMPERSONATION");
        builder.environment().putAll(environment);
        try {
            Path out = Files.createTempFile(folder, "out", ".txt");
            Path err = Files.createTempFile(folder, "err", ".txt");
            builder.redirectOutput(out.toFile()).redirectError(err.toFile());
            return new Running(builder.start(), out, err);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A command that runs. */
    record Running(Process process, Path out, Path err) {
        Result await() {
            try {
                if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new AssertionError("the command did not end within " + TIMEOUT_SECONDS + " s");
                }
                return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                        Files.readString(err, StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
                throw new AssertionError("interrupted while waiting for the command", e);
            }
        }
    }
}
