package io.countersign.model;

import io.countersign.engine.chat.TrustZone;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.chat.ChatRequest;
import io.countersign.engine.chat.ModelConfiguration;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.net.ServerSocketFactory;
import mockwebserver3.MockWebServer;

/** Recorded provider answers and configurations pointing at a test server. */
final class Fixtures {
    private Fixtures() {
    }

    /**
     * A started server that sends without delay: its answers are written in several pieces, and with Nagle's
     * algorithm each exchange would wait some 40 ms for a delayed acknowledgement.
     */
    static MockWebServer startServer() throws IOException {
        MockWebServer server = new MockWebServer();
        server.setServerSocketFactory(new NoDelayServerSocketFactory());
        server.start();
        return server;
    }

    /** A recorded answer from {@code src/test/resources/io/countersign/model}. */
    static String answer(String name) {
        try (InputStream in = Fixtures.class.getResourceAsStream(name + ".json")) {
            if (in == null) {
                throw new IllegalArgumentException("no recorded answer " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ModelConfiguration configuration(MockWebServer server, String apiKeyEnvironment, String apiKeyFile) {
        return new ModelConfiguration("local-llama", "ollama", "llama3.2", server.url("/v1").toString(),
                TrustZone.LOCAL, null, null, apiKeyEnvironment, apiKeyFile);
    }

    static ModelConfiguration configuration(MockWebServer server) {
        return configuration(server, null, null);
    }

    static ChatRequest ask(ModelConfiguration model, String question) {
        return new ChatRequest(model, List.of(ChatMessage.user(question)), List.of(), null);
    }

    private static final class NoDelayServerSocketFactory extends ServerSocketFactory {
        @Override
        public ServerSocket createServerSocket() throws IOException {
            return new ServerSocket() {
                @Override
                public Socket accept() throws IOException {
                    Socket socket = super.accept();
                    socket.setTcpNoDelay(true);
                    return socket;
                }
            };
        }

        @Override
        public ServerSocket createServerSocket(int port) throws IOException {
            return createServerSocket(port, 50, null);
        }

        @Override
        public ServerSocket createServerSocket(int port, int backlog) throws IOException {
            return createServerSocket(port, backlog, null);
        }

        @Override
        public ServerSocket createServerSocket(int port, int backlog, InetAddress address) throws IOException {
            ServerSocket socket = createServerSocket();
            socket.bind(new InetSocketAddress(address, port), backlog);
            return socket;
        }
    }
}
