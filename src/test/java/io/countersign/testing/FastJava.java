package io.countersign.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * The command line of a Java process a test starts (the command line, a gateway, a crashing decider, a conformance
 * client). Tests start hundreds, so each starts fast: C1 only, the serial collector, and one class-data archive of the
 * classes a typical child loads, made once per test run. The JVM archives only classes from jars, so the class
 * folders of the test class path are packed into jars first; a child's class path must begin with
 * {@link #classpath()} for the archive to apply (append anything of its own after it).
 */
public final class FastJava {
    private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");
    private static final List<String> FAST_START = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
            "-XX:-UsePerfData", "-Xss512k");
    private static final String COMMAND_LINE = "io.countersign.app.Main";
    private static Path folder;
    private static String classpath;
    private static boolean archiving;

    private FastJava() {
    }

    /** The {@code java} launcher of the JVM running the tests. */
    public static String java() {
        return JAVA.toString();
    }

    /**
     * The JVM options before {@code -cp}: the fast start, and the archive once one exists. The first call in a test
     * run without an archive makes one from a {@code countersign demo} on a scratch store, unless
     * {@link #shareClassesOf} made one first.
     */
    public static List<String> options() {
        archive(COMMAND_LINE, "--store", scratch().resolve("archiving.db").toString(), "demo");
        List<String> options = new ArrayList<>(FAST_START);
        Path archive = archiveFile();
        // Without an archive (the JVM declined to write one) children only start slower.
        if (Files.exists(archive)) {
            options.addAll(List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off"));
        }
        return options;
    }

    /** {@code java}, {@link #options()}, {@code -cp} {@link #classpath()}, the main class and its arguments. */
    public static List<String> command(String mainClass, String... args) {
        List<String> command = new ArrayList<>();
        command.add(java());
        command.addAll(options());
        command.addAll(List.of("-cp", classpath(), mainClass));
        command.addAll(Arrays.asList(args));
        return command;
    }

    /** {@code countersign ARGS...}: the command line's main class in a child JVM. */
    public static List<String> countersign(String... args) {
        return command(COMMAND_LINE, args);
    }

    /**
     * Makes the archive from a run of {@code mainClass} to its end, when none was made yet in this test run: the
     * classes it loads are mapped by later children instead of loaded and verified again.
     */
    public static void shareClassesOf(Class<?> mainClass, String... args) {
        archive(mainClass.getName(), args);
    }

    private static synchronized void archive(String mainClass, String... args) {
        if (archiving) {
            return;
        }
        archiving = true;
        Path log = scratch().resolve("archiving.log");
        List<String> command = new ArrayList<>(List.of(java()));
        command.addAll(FAST_START);
        command.addAll(List.of("-XX:ArchiveClassesAtExit=" + archiveFile(), "-cp", classpath(), mainClass));
        command.addAll(Arrays.asList(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                    .start();
            if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IllegalStateException("the class-archiving run of " + mainClass + " failed: "
                        + Files.readString(log));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while archiving the classes of " + mainClass, e);
        }
    }

    private static Path archiveFile() {
        return scratch().resolve("classes.jsa");
    }

    /** The test class path with its class folders packed into jars, made once per test run. */
    public static synchronized String classpath() {
        if (classpath == null) {
            String tests = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
            List<String> entries = new ArrayList<>();
            for (String entry : tests.split(File.pathSeparator)) {
                Path path = Path.of(entry);
                entries.add(Files.isDirectory(path) ? jar(path).toString() : entry);
            }
            classpath = String.join(File.pathSeparator, entries);
        }
        return classpath;
    }

    private static Path jar(Path classes) {
        try {
            Path jar = Files.createTempFile(scratch(), "classes", ".jar");
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
        } catch (IOException e) {
            throw new UncheckedIOException("could not pack " + classes + " into a jar", e);
        }
    }

    private static synchronized Path scratch() {
        if (folder == null) {
            try {
                folder = Files.createTempDirectory("countersign-child-jvm");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
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
}
