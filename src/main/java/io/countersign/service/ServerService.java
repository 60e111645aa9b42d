package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.tool.RemoteDeclaration;
import io.countersign.engine.tool.McpServerRecord;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The admin's use cases over MCP server records: list, add, edit, remove and test. Every method checks the acting
 * user's roles and throws {@link NotPermittedException} when they do not allow it. A form that does not make a
 * usable record (a missing command, a URL that is not http or https, a secret given as a value where a
 * reference {@code env:NAME} is needed) is refused with an {@link IllegalArgumentException} naming the field; an
 * unknown or taken name is an expected answer. Every change is recorded with who and when.
 */
public interface ServerService {

    /**
     * Every server record by name, each with its declaration. Admins only: a record names the commands, addresses
     * and variables of the admin's setup; supervisors read the recorded changes instead.
     */
    List<McpServerRecord> list(Actor actor);

    /**
     * The tools of a server that an operator declared by themselves (approval-bound or not, whatever the server's
     * declaration), by name in name order, each naming who declared it; the other tools follow the server's.
     * Admins only, as {@link #list} is.
     */
    Map<String, RemoteDeclaration> toolDeclarations(Actor actor, String server);

    /**
     * Adds a server; a field the form leaves out takes its default, so a server added without a declaration is
     * not declared, and its tools run without approval.
     */
    ServerResult add(Actor actor, String name, ServerForm form);

    /** Changes the fields the form gives; the others keep their values. */
    ServerResult edit(Actor actor, String name, ServerForm form);

    /** Removes a server; its declaration returns to the default. */
    ServerResult remove(Actor actor, String name);

    /**
     * Connects to the server as its record says (also when it is disabled), completes the handshake and lists its
     * tools; saves and registers nothing.
     */
    ServerCheck test(Actor actor, String name);

    /**
     * Signs in to a Streamable HTTP server through OAuth now, as a connection would on its first 401, and lists its
     * tools; {@code clientId} is a client registered beforehand with the server's authorization server, for one
     * that offers no dynamic registration. The grant goes to the user's credential store, never to the store.
     */
    ServerCheck signIn(Actor actor, String name, Optional<String> clientId);
}
