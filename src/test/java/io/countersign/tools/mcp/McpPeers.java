package io.countersign.tools.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.countersign.engine.tool.McpServerRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real MCP peers of the integration tests: the reference servers, the client conformance suite and the
 * reference Inspector (a host) from the npm registry, installed once into a cache folder and run with the
 * {@code node} found on the PATH.
 *
 * <p>The cache folder is {@code ~/.cache/countersign-mcp}, or the system property {@code countersign.mcp.cache},
 * or the environment variable {@code COUNTERSIGN_MCP_CACHE}; the servers go to its {@code servers} folder, the suite
 * to its {@code conformance} folder, the Inspector to its {@code hosts} folder. Without node and npm the tests fail
 * and say what to install: they are never skipped.
 */
public final class McpPeers {
    public static final String FILESYSTEM = "@modelcontextprotocol/server-filesystem";
    public static final String EVERYTHING = "@modelcontextprotocol/server-everything";
    public static final String CONFORMANCE = "@modelcontextprotocol/conformance";
    public static final String INSPECTOR = "@modelcontextprotocol/inspector";
    public static final String AGENTS_SDK = "@openai/agents";
    public static final String LANGCHAIN_ADAPTERS = "@langchain/mcp-adapters";
    static final int MIN_NODE_MAJOR = 20;
    /** The reference servers, pinned; both run on Node 20. */
    private static final Installation SERVERS = new Installation("servers",
            Map.of(FILESYSTEM, "2026.8.31", EVERYTHING, "2026.8.31"));
    /**
     * The client conformance suite (newer releases need Node 22) with the MCP SDK of its release day: later SDKs
     * refuse the stateless server that its tools_call scenario runs ("Already connected to a transport").
     */
    private static final Installation SUITE = new Installation("conformance",
            Map.of(CONFORMANCE, "0.1.9", "@modelcontextprotocol/sdk", "1.25.1"));
    /**
     * The reference Inspector, whose command-line mode is a host: 1.0.3 is the newest whose CLI runs on Node 20
     * (its package asks for Node 22.7.5 for the web client; 2.x needs Node 22.19); its CLI half and the MCP SDK the
     * CLI runs on are pinned with it. Beside it two agent frameworks' MCP clients, on the same MCP SDK: the OpenAI
     * Agents SDK for JavaScript 0.14.3 and LangChain's MCP adapters 1.1.4 (with the LangChain core and LangGraph
     * they ask for), the newest that run on Node 20.
     */
    private static final Installation HOSTS = new Installation("hosts",
            Map.of(INSPECTOR, "1.0.3", INSPECTOR + "-cli", "1.0.3", "@modelcontextprotocol/sdk", "1.32.2",
                    AGENTS_SDK, "0.14.3", LANGCHAIN_ADAPTERS, "1.1.4", "@langchain/core", "1.4.0",
                    "@langchain/langgraph", "1.7.3"));
    private static final List<Installation> INSTALLATIONS = List.of(SERVERS, SUITE, HOSTS);
    private static final String INSTALL_HINT = "Install Node.js " + MIN_NODE_MAJOR + " or newer with npm (for"
            + " example `apt-get install -y nodejs npm` on Debian or Ubuntu, or from nodejs.org) and make sure `node`"
            + " and `npm` are on the PATH; the tests then install "
            + String.join(", ", INSTALLATIONS.stream().flatMap(installation -> installation.specs().stream()).toList())
            + " from the npm registry into " + cacheFolder() + ".";
    private static final long INSTALL_TIMEOUT_MINUTES = 5;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Path node;

    /** A folder of pinned npm packages under the cache folder. */
    private record Installation(String folder, Map<String, String> packages) {
        /** What npm installs: {@code name@version} for each package. */
        List<String> specs() {
            return packages.entrySet().stream().map(pinned -> pinned.getKey() + "@" + pinned.getValue()).sorted()
                    .toList();
        }
    }

    private McpPeers() {
    }

    /** The {@code node} executable, checked to be recent enough. */
    public static synchronized String node() {
        if (node == null) {
            Path found = onPath("node").orElseThrow(() -> missing("node"));
            String version = run(List.of(found.toString(), "--version"), null).strip();
            Matcher major = Pattern.compile("v(\\d+)\\.").matcher(version);
            if (!major.lookingAt() || Integer.parseInt(major.group(1)) < MIN_NODE_MAJOR) {
                throw new AssertionError("The MCP integration tests need Node.js " + MIN_NODE_MAJOR + " or newer, but "
                        + found + " is " + version + ". " + INSTALL_HINT);
            }
            node = found;
        }
        return node.toString();
    }

    /**
     * A stdio server record named {@code name} of the conformance suite's scenario tools
     * ({@code src/test/resources/conformance/scenario-tools.mjs}, copied into {@code folder}).
     */
    public static McpServerRecord scenarioTools(Path folder, String name) throws IOException {
        Path tools = folder.resolve("scenario-tools.mjs");
        if (!Files.exists(tools)) {
            try (var script = McpPeers.class.getResourceAsStream("/conformance/scenario-tools.mjs")) {
                Files.copy(script, tools);
            }
        }
        String sdk = Path.of(script("@modelcontextprotocol/sdk", "package.json")).getParent().toString();
        return McpServerRecord.withDefaults(name, new McpServerRecord.Stdio(node(),
                List.of(tools.toString()), Map.of("MCP_SDK_DIR", sdk)));
    }

    /**
     * A host script of the test resources ({@code /hosts/NAME}), copied beside the installed hosts so that it
     * imports them (the OpenAI Agents SDK for JavaScript among them) as a user's own script would.
     */
    public static String hostScript(String name) {
        Path script = modules(HOSTS).getParent().resolve(name);
        try (var resource = McpPeers.class.getResourceAsStream("/hosts/" + name)) {
            if (resource == null) {
                throw new IllegalArgumentException("no host script /hosts/" + name + " in the test resources");
            }
            Files.copy(resource, script, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("could not place the host script " + name, e);
        }
        return script.toString();
    }

    /** The main script of an installed package, such as {@code dist/index.js}. */
    public static String script(String npmPackage, String relativePath) {
        Installation installation = INSTALLATIONS.stream().filter(each -> each.packages().containsKey(npmPackage))
                .findFirst().orElseThrow(() -> new IllegalArgumentException(npmPackage + " is not one of the pinned"
                        + " MCP peers"));
        Path script = modules(installation).resolve(npmPackage).resolve(relativePath);
        if (!Files.isRegularFile(script)) {
            throw new AssertionError("the installed package " + npmPackage + " has no " + relativePath + " at "
                    + script + "; delete " + cacheFolder() + " and run the tests again");
        }
        return script.toString();
    }

    /** The {@code node_modules} folder of an installation, installing what is missing first. */
    private static synchronized Path modules(Installation installation) {
        Path prefix = cacheFolder().resolve(installation.folder());
        Path folder = prefix.resolve("node_modules");
        if (installed(folder, installation)) {
            return folder;
        }
        node();
        Path npm = onPath("npm").orElseThrow(() -> missing("npm"));
        try {
            Files.createDirectories(prefix);
            // another test JVM may be installing into the same folder
            try (FileChannel channel = FileChannel.open(prefix.resolve(".install.lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE)) {
                FileLock lock = channel.lock();
                if (!installed(folder, installation)) {
                    List<String> command = new ArrayList<>(List.of(npm.toString(), "install", "--prefix",
                            prefix.toString(), "--no-audit", "--no-fund", "--ignore-scripts"));
                    command.addAll(installation.specs());
                    run(command, prefix);
                }
                lock.release();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not prepare the MCP peer folder " + prefix, e);
        }
        if (!installed(folder, installation)) {
            throw new AssertionError("npm finished but " + folder + " still lacks one of "
                    + installation.specs());
        }
        return folder;
    }

    private static boolean installed(Path folder, Installation installation) {
        for (Map.Entry<String, String> pinned : installation.packages().entrySet()) {
            Path manifest = folder.resolve(pinned.getKey()).resolve("package.json");
            try {
                if (!Files.isRegularFile(manifest)
                        || !pinned.getValue().equals(JSON.readTree(manifest.toFile()).path("version").asText())) {
                    return false;
                }
            } catch (IOException e) {
                return false;
            }
        }
        return true;
    }

    static Path cacheFolder() {
        String configured = System.getProperty("countersign.mcp.cache", System.getenv("COUNTERSIGN_MCP_CACHE"));
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        return Path.of(System.getProperty("user.home"), ".cache", "countersign-mcp");
    }

    private static AssertionError missing(String executable) {
        return new AssertionError("The MCP integration tests need `" + executable + "`, which is not on the PATH ("
                + System.getenv("PATH") + "). " + INSTALL_HINT);
    }

    private static Optional<Path> onPath(String executable) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String entry : path.split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(entry).resolve(executable);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** Runs a command to its end and returns its output; a failure fails the test with that output. */
    private static String run(List<String> command, Path directory) {
        try {
            Path log = Files.createTempFile("countersign-mcp-", ".log");
            try {
                ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(log.toFile());
                if (directory != null) {
                    builder.directory(directory.toFile());
                }
                Process process = builder.start();
                if (!process.waitFor(INSTALL_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                    process.destroyForcibly();
                    throw new AssertionError(String.join(" ", command) + " did not finish within "
                            + INSTALL_TIMEOUT_MINUTES + " minutes");
                }
                String output = Files.readString(log, StandardCharsets.UTF_8);
                if (process.exitValue() != 0) {
                    throw new AssertionError(String.join(" ", command) + " failed with status "
                            + process.exitValue() + ":\n" + output);
                }
                return output;
            } finally {
                Files.deleteIfExists(log);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running " + command, e);
        }
    }
}
