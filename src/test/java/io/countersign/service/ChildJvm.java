package io.countersign.service;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * A main class of the test classpath in a JVM of its own. Tests start dozens, so each starts fast: C1 only, the
 * serial collector, and a class-data archive of the classes a typical child loads ({@link #shareClassesOf}),
 * for which the class folders are packed into jars (the JVM archives only classes from jars). Standard error
 * goes to a file, shown when the child fails; standard output is read line by line.
 */
final class ChildJvm implements AutoCloseable {
    private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");
    private static final List<String> FAST_START = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
            "-XX:-UsePerfData", "-Xss512k");
    private static Path folder;
    private static String classpath;
    private static boolean archived;

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
     * instead of loading and verifying those classes again. Only the first call in a test run does anything.
     */
    static synchronized void shareClassesOf(Class<?> main, String... args) throws Exception {
        if (archived) {
            return;
        }
        Path dump = archive();
        Path log = folder().resolve("archiving.log");
        List<String> command = command(main, List.of("-XX:ArchiveClassesAtExit=" + dump), args);
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IllegalStateException("the class-archiving run of " + main.getName() + " failed: "
                    + Files.readString(log));
        }
        archived = true;
    }

    private static Path archive() throws IOException {
        return folder().resolve("classes.jsa");
    }

    static ChildJvm start(Class<?> main, Path errors, String... args) throws IOException {
        // Without an archive (none made, or the JVM declined to write one) children only start slower.
        List<String> options = !Files.exists(archive()) ? List.of()
                : List.of("-XX:SharedArchiveFile=" + archive(), "-Xlog:cds=off", "-Xlog:cds+dynamic=off");
        Process process = new ProcessBuilder(command(main, options, args))
                .redirectError(ProcessBuilder.Redirect.appendTo(errors.toFile()))
                .start();
        return new ChildJvm(process, errors);
    }

    private static List<String> command(Class<?> main, List<String> options, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(JAVA.toString());
        command.addAll(FAST_START);
        command.addAll(options);
        command.addAll(List.of("-cp", classpath(), main.getName()));
        command.addAll(Arrays.asList(args));
        return command;
    }

    private static synchronized String classpath() throws IOException {
        if (classpath == null) {
            String tests = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
            List<String> entries = new ArrayList<>();
            for (String entry : tests.split(java.io.File.pathSeparator)) {
                Path path = Path.of(entry);
                entries.add(Files.isDirectory(path) ? jar(path).toString() : entry);
            }
            classpath = String.join(java.io.File.pathSeparator, entries);
        }
        return classpath;
    }

    private static Path jar(Path classes) throws IOException {
        Path jar = Files.createTempFile(folder(), "classes", ".jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
             Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(path -> !path.equals(classes)).sorted().toList()) {
                // Folders get entries too: Flyway finds its migrations by asking for their folder.
                String name = classes.relativize(file).toString().replace('\\', '/');
                out.putNextEntry(new JarEntry(Files.isDirectory(file) ? name + "/" : name));
                if (Files.isRegularFile(file)) {
                    Files.copy(file, out);
                }
                out.closeEntry();
            }
        }
        return jar;
    }

    private static synchronized Path folder() throws IOException {
        if (folder == null) {
            folder = Files.createTempDirectory("countersign-child-jvm");
            Path created = folder;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(created)));
        }
        return folder;
    }

    private static void delete(Path tree) {
        try (Stream<Path> paths = Files.walk(tree)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
