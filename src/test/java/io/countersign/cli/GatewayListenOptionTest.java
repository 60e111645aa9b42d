package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.countersign.engine.Actor;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.countersign.tools.mcp.McpPeers;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gateway --listen} with an address it cannot serve: one sentence naming the cause, and exit code 2. */
class GatewayListenOptionTest {
    @TempDir
    Path folder;
    CommandProcess countersign;

    @BeforeEach
    void aStoreWithAProfile() {
        Path db = folder.resolve("countersign.db");
        countersign = new CommandProcess(folder, db.toString());
        try (Store store = Store.open(new StoreLocation.SqliteFile(db))) {
            Actor admin = store.users().signedIn(System.getProperty("user.name", "operator"));
            store.servers().add(McpServerRecord.stdio("everything", McpPeers.node(),
                    List.of(McpPeers.script(McpPeers.EVERYTHING, "dist/index.js"), "stdio")), admin);
        }
        assertThat(countersign.runHere("gateway", "profiles", "add", "desk", "--server", "everything").exitCode())
                .isZero();
    }

    @Test
    void anAddressWithoutAPortIsRefused() {
        assertRefused("127.0.0.1", "--listen needs HOST:PORT, such as 127.0.0.1:8808 (0 picks a free port);"
                + " \"127.0.0.1\" has no port");
    }

    @Test
    void aPortOutOfRangeIsRefused() {
        assertRefused("127.0.0.1:65536", "--listen 127.0.0.1:65536: the port must be a number from 0 to 65535,"
                + " not \"65536\"");
        assertRefused("127.0.0.1:http", "the port must be a number from 0 to 65535, not \"http\"");
    }

    @Test
    void anUnknownHostIsRefused() {
        assertRefused("no-such-host.invalid:8808", "--listen no-such-host.invalid:8808: unknown host"
                + " \"no-such-host.invalid\"");
    }

    @Test
    void anAddressOtherHostsCouldReachIsRefusedBecauseTheTokenWouldCrossTheNetworkInClear() {
        assertRefused("0.0.0.0:8808", "--listen 0.0.0.0:8808: 0.0.0.0 is not a loopback address, and the gateway"
                + " speaks plain HTTP, so its bearer token would cross the network readable by anyone on the way");
    }

    @Test
    void aPortInUseIsRefused() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String address = "127.0.0.1:" + taken.getLocalPort();
            assertRefused(address, "cannot listen on " + address + ": the port is already in use (port 0 picks a"
                    + " free one)");
        }
    }

    @Test
    void anIdleTimeIsForHttpSessionsOnlyAndAtLeastThreeSeconds() {
        assertUsage(List.of("--session-idle", "30"), "--session-idle applies to --listen only: over stdio the"
                + " host's closing of standard input ends its run");
        assertUsage(List.of("--listen", "127.0.0.1:0", "--session-idle", "2"), "--session-idle must be at least 3"
                + " seconds, not 2");
    }

    private void assertRefused(String listen, String message) {
        assertUsage(List.of("--listen", listen), message);
    }

    private void assertUsage(List<String> options, String message) {
        List<String> arguments = new ArrayList<>(List.of("gateway", "--profile", "desk"));
        arguments.addAll(options);
        CommandProcess.Result result = countersign.runHere(arguments.toArray(String[]::new));

        assertThat(result.exitCode()).as(result.err()).isEqualTo(Cli.BAD_USAGE);
        assertThat(result.err().lines().toList()).as("stderr").singleElement().asString().contains(message);
        assertThat(result.out()).isEmpty();
    }
}
