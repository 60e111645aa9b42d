package io.countersign.tools.mcp.oauth;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.freedesktop.dbus.DBusPath;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.connections.impl.DBusConnectionBuilder;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.exceptions.DBusExecutionException;
import org.freedesktop.dbus.interfaces.Properties;
import org.freedesktop.dbus.types.Variant;

/**
 * The grants in the Secret Service of the desktop session (GNOME Keyring, KWallet, KeePassXC) over D-Bus, with
 * dbus-java: one item per server in the default collection, found by its attributes ({@code application},
 * {@code service}, {@code server}). Each use opens its own connection and closes it, so no bus thread outlives it.
 * A locked collection is not unlocked here (that needs the desktop's prompt): the vault is not chosen then.
 */
final class SecretServiceTokenVault implements TokenVault {
    private static final String PLAIN = "plain";
    private final ObjectMapper json = new ObjectMapper();

    /** Whether a Secret Service answers on the session bus with an unlocked default collection. */
    static boolean available() {
        if (System.getenv("DBUS_SESSION_BUS_ADDRESS") == null) {
            return false;
        }
        try (DBusConnection bus = DBusConnectionBuilder.forSessionBus().withShared(false).build()) {
            SecretServiceApi.Service service = service(bus);
            DBusPath collection = service.ReadAlias("default");
            if (collection == null || SecretServiceApi.NO_OBJECT.equals(collection.getPath())) {
                return false;
            }
            Properties properties = bus.getRemoteObject(SecretServiceApi.BUS_NAME, collection.getPath(),
                    Properties.class);
            Object locked = properties.Get("org.freedesktop.Secret.Collection", "Locked");
            return Boolean.FALSE.equals(locked);
        } catch (DBusException | IOException | RuntimeException e) {
            return false;
        }
    }

    @Override
    public synchronized Optional<StoredGrant> load(String server) {
        try (DBusConnection bus = connect()) {
            SecretServiceApi.Service service = service(bus);
            DBusPath session = service.OpenSession(PLAIN, new Variant<>("")).result;
            try {
                for (DBusPath path : service.SearchItems(attributes(server)).unlocked) {
                    SecretServiceApi.Secret secret = bus.getRemoteObject(SecretServiceApi.BUS_NAME, path.getPath(),
                            SecretServiceApi.Item.class).GetSecret(session);
                    return Optional.of(json.readValue(new String(secret.value, StandardCharsets.UTF_8),
                            StoredGrant.class));
                }
                return Optional.empty();
            } finally {
                close(bus, session);
            }
        } catch (DBusException | DBusExecutionException | IOException e) {
            throw new OAuthException("the grant of server \"" + server + "\" could not be read from "
                    + description() + ": " + e.getClass().getSimpleName());
        }
    }

    @Override
    public synchronized void save(String server, StoredGrant grant) {
        try (DBusConnection bus = connect()) {
            SecretServiceApi.Service service = service(bus);
            DBusPath session = service.OpenSession(PLAIN, new Variant<>("")).result;
            try {
                DBusPath collection = service.ReadAlias("default");
                Map<String, Variant<?>> properties = new LinkedHashMap<>();
                properties.put("org.freedesktop.Secret.Item.Label", new Variant<>("Countersign: OAuth grant of MCP"
                        + " server " + server));
                properties.put("org.freedesktop.Secret.Item.Attributes", new Variant<>(attributes(server), "a{ss}"));
                SecretServiceApi.Secret secret = new SecretServiceApi.Secret(session, new byte[0],
                        json.writeValueAsBytes(grant), "application/json");
                SecretServiceApi.CreatedItem created = bus.getRemoteObject(SecretServiceApi.BUS_NAME,
                        collection.getPath(), SecretServiceApi.Collection.class).CreateItem(properties, secret, true);
                if (!SecretServiceApi.NO_OBJECT.equals(created.prompt.getPath())) {
                    throw new OAuthException("the Secret Service wants a prompt answered to save the grant of server \""
                            + server + "\"; unlock the default keyring and sign in again");
                }
            } finally {
                close(bus, session);
            }
        } catch (DBusException | DBusExecutionException | IOException e) {
            throw new OAuthException("the grant of server \"" + server + "\" could not be saved in " + description()
                    + ": " + e.getClass().getSimpleName());
        }
    }

    @Override
    public synchronized void remove(String server) {
        try (DBusConnection bus = connect()) {
            for (DBusPath path : service(bus).SearchItems(attributes(server)).unlocked) {
                bus.getRemoteObject(SecretServiceApi.BUS_NAME, path.getPath(), SecretServiceApi.Item.class).Delete();
            }
        } catch (DBusException | DBusExecutionException | IOException e) {
            throw new OAuthException("the grant of server \"" + server + "\" could not be removed from "
                    + description() + ": " + e.getClass().getSimpleName());
        }
    }

    @Override
    public String description() {
        return "the Secret Service (D-Bus)";
    }

    private static DBusConnection connect() throws DBusException {
        return DBusConnectionBuilder.forSessionBus().withShared(false).build();
    }

    private static SecretServiceApi.Service service(DBusConnection bus) throws DBusException {
        return bus.getRemoteObject(SecretServiceApi.BUS_NAME, SecretServiceApi.SERVICE_PATH,
                SecretServiceApi.Service.class);
    }

    private static void close(DBusConnection bus, DBusPath session) {
        try {
            bus.getRemoteObject(SecretServiceApi.BUS_NAME, session.getPath(), SecretServiceApi.Session.class).Close();
        } catch (DBusException | DBusExecutionException e) {
            // the session ends with the connection anyway
        }
    }

    private static Map<String, String> attributes(String server) {
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("application", "countersign");
        attributes.put("service", KeyringTokenVault.SERVICE);
        attributes.put("server", server);
        return attributes;
    }
}
