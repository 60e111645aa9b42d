package io.countersign.tools.mcp.oauth;

import java.util.List;
import java.util.Map;
import org.freedesktop.dbus.DBusPath;
import org.freedesktop.dbus.Struct;
import org.freedesktop.dbus.Tuple;
import org.freedesktop.dbus.annotations.DBusInterfaceName;
import org.freedesktop.dbus.annotations.Position;
import org.freedesktop.dbus.interfaces.DBusInterface;
import org.freedesktop.dbus.types.Variant;

/** The part of the freedesktop.org Secret Service API (0.2) that keeps one secret per server, for dbus-java. */
final class SecretServiceApi {
    static final String BUS_NAME = "org.freedesktop.secrets";
    static final String SERVICE_PATH = "/org/freedesktop/secrets";
    static final String NO_OBJECT = "/";

    private SecretServiceApi() {
    }

    @DBusInterfaceName("org.freedesktop.Secret.Service")
    interface Service extends DBusInterface {
        OpenedSession OpenSession(String algorithm, Variant<?> input);

        FoundItems SearchItems(Map<String, String> attributes);

        DBusPath ReadAlias(String name);
    }

    @DBusInterfaceName("org.freedesktop.Secret.Collection")
    interface Collection extends DBusInterface {
        CreatedItem CreateItem(Map<String, Variant<?>> properties, Secret secret, boolean replace);
    }

    @DBusInterfaceName("org.freedesktop.Secret.Item")
    interface Item extends DBusInterface {
        Secret GetSecret(DBusPath session);

        DBusPath Delete();
    }

    @DBusInterfaceName("org.freedesktop.Secret.Session")
    interface Session extends DBusInterface {
        void Close();
    }

    /** {@code (oayays)}: a secret as the service hands it over, in the clear for the "plain" session. */
    public static final class Secret extends Struct {
        @Position(0)
        public final DBusPath session;
        @Position(1)
        public final byte[] parameters;
        @Position(2)
        public final byte[] value;
        @Position(3)
        public final String contentType;

        public Secret(DBusPath session, byte[] parameters, byte[] value, String contentType) {
            this.session = session;
            this.parameters = parameters;
            this.value = value;
            this.contentType = contentType;
        }
    }

    public static final class OpenedSession extends Tuple {
        @Position(0)
        public final Variant<?> output;
        @Position(1)
        public final DBusPath result;

        public OpenedSession(Variant<?> output, DBusPath result) {
            this.output = output;
            this.result = result;
        }
    }

    public static final class FoundItems extends Tuple {
        @Position(0)
        public final List<DBusPath> unlocked;
        @Position(1)
        public final List<DBusPath> locked;

        public FoundItems(List<DBusPath> unlocked, List<DBusPath> locked) {
            this.unlocked = unlocked;
            this.locked = locked;
        }
    }

    public static final class CreatedItem extends Tuple {
        @Position(0)
        public final DBusPath item;
        @Position(1)
        public final DBusPath prompt;

        public CreatedItem(DBusPath item, DBusPath prompt) {
            this.item = item;
            this.prompt = prompt;
        }
    }
}
