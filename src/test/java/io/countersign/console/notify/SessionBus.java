package io.countersign.console.notify;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A real D-Bus session bus of its own for a test: {@code dbus-daemon --session} listening on a socket in a
 * temporary folder, ended with the test.
 */
public final class SessionBus implements AutoCloseable {
    private final Process daemon;
    private final String address;

    private SessionBus(Process daemon, String address) {
        this.daemon = daemon;
        this.address = address;
    }

    /** Starts the daemon and waits for the address it prints. */
    public static SessionBus start(Path folder) {
        Process daemon;
        try {
            daemon = new ProcessBuilder("dbus-daemon", "--session", "--nofork", "--print-address=1",
                    "--address=unix:path=" + folder.resolve("bus")).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("dbus-daemon cannot be started (Debian: apt-get install dbus-daemon)", e);
        }
        BufferedReader printed = new BufferedReader(new InputStreamReader(daemon.getInputStream(),
                StandardCharsets.UTF_8));
        try {
            String address = CompletableFuture.supplyAsync(() -> {
                try {
                    return printed.readLine();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).get(10, TimeUnit.SECONDS);
            if (address == null || !address.startsWith("unix:")) {
                daemon.destroy();
                throw new IllegalStateException("dbus-daemon printed no address: " + address);
            }
            return new SessionBus(daemon, address.strip());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            daemon.destroy();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            daemon.destroy();
            throw new IllegalStateException("dbus-daemon did not print its address within 10 s", e);
        }
    }

    /** Such as {@code unix:path=/tmp/junit…/bus,guid=…}. */
    public String address() {
        return address;
    }

    @Override
    public void close() {
        daemon.destroy();
        try {
            daemon.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
