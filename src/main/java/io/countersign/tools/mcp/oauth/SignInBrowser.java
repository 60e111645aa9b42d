package io.countersign.tools.mcp.oauth;

import java.io.PrintStream;
import java.net.URI;

/** Shows a person the authorization server's sign-in page; the redirect comes back to the loopback listener. */
@FunctionalInterface
public interface SignInBrowser {
    void open(URI authorizationUrl);

    /**
     * The desktop's browser where the platform offers one ({@link java.awt.Desktop}), and the URL printed on
     * {@code out} in every case, so a person at a terminal or on another machine can open it.
     */
    static SignInBrowser system(PrintStream out) {
        return url -> {
            out.println("Sign in to authorize Countersign; open this address in a browser: " + url);
            try {
                if (!java.awt.GraphicsEnvironment.isHeadless() && java.awt.Desktop.isDesktopSupported()
                        && java.awt.Desktop.getDesktop().isSupported(java.awt.Desktop.Action.BROWSE)) {
                    java.awt.Desktop.getDesktop().browse(url);
                }
            } catch (java.io.IOException | RuntimeException e) {
                // the printed address is the way then
            }
        };
    }
}
