package io.countersign.tools.gateway;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Where the gateway listens for MCP over HTTP: a loopback address and a port (0 for a free one). The gateway speaks
 * plain HTTP, so its bearer token would cross a network readable on the way: an address other machines could reach
 * is refused rather than served.
 *
 * @param host the host as given, for messages and the allowed {@code Host} header
 * @param address what it resolved to
 */
public record ListenAddress(String host, InetAddress address, int port) {

    /**
     * Reads {@code HOST:PORT} ({@code [::1]:PORT} for an IPv6 address).
     *
     * @throws IllegalArgumentException naming what is wrong: no port, a port out of range, an unknown host, or a
     *                                  host that is not loopback
     */
    public static ListenAddress parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon < 0 || colon == text.length() - 1 || text.endsWith("]")) {
            throw new IllegalArgumentException("--listen needs HOST:PORT, such as 127.0.0.1:8808 (0 picks a free"
                    + " port); \"" + text + "\" has no port");
        }
        String host = text.substring(0, colon);
        String portText = text.substring(colon + 1);
        int port;
        try {
            port = Integer.parseInt(portText);
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--listen " + text + ": the port must be a number from 0 to 65535,"
                    + " not \"" + portText + "\"");
        }
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (bare.isEmpty()) {
            throw new IllegalArgumentException("--listen " + text + ": no host before the port; use 127.0.0.1");
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(bare);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("--listen " + text + ": unknown host \"" + bare + "\"");
        }
        if (!address.isLoopbackAddress()) {
            throw new IllegalArgumentException("--listen " + text + ": " + address.getHostAddress() + " is not a"
                    + " loopback address, and the gateway speaks plain HTTP, so its bearer token would cross the network"
                    + " readable by anyone on the way; listen on 127.0.0.1, ::1 or localhost");
        }
        return new ListenAddress(host, address, port);
    }
}
