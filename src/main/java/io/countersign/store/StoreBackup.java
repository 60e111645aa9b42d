package io.countersign.store;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code store backup} and {@code store restore}. A SQLite store is backed up by SQLite ({@code VACUUM INTO}) into a
 * store file of its own and restored with SQLite's backup API; a PostgreSQL store is exported from one
 * REPEATABLE READ snapshot into a file of JSON lines (see {@link #FORMAT}) and restored into a store with nothing in
 * it, in one transaction. Either way a backup holds the schema version it was taken at, and is only restored by a
 * build of that version.
 */
final class StoreBackup {
    /**
     * The first line of a PostgreSQL backup: {@code {"format":"countersign-backup-1","database":"postgresql",
     * "versions":[...]}}; then for each table a line {@code {"table":NAME,"columns":[...]}} followed by one JSON
     * array per row (bytes in base64), tables in an order where each comes after those its foreign keys name.
     */
    static final String FORMAT = "countersign-backup-1";
    private static final byte[] SQLITE_HEADER = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
    private static final String HISTORY = "flyway_schema_history";
    /** The tables whose rows make a store one in use; the migrations' own rows elsewhere do not. */
    private static final List<String> WORK = List.of("runs", "governance_events", "decisions", "users");
    private static final ObjectMapper JSON = new ObjectMapper();

    private StoreBackup() {
    }

    static void backup(Database database, Path file) {
        if (Files.exists(file)) {
            throw new IllegalArgumentException("The file " + file + " exists already; a backup goes to a new file.");
        }
        if (database.dialect() == Dialect.SQLITE) {
            StoreCopies.vacuumInto(database, file, "back up the store to " + file);
            return;
        }
        Path partial = file.resolveSibling(file.getFileName() + ".part");
        try {
            database.read("back up the store to " + file, connection -> {
                try {
                    export(connection, partial);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return null;
            });
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (UncheckedIOException e) {
            throw new StoreException("Countersign could not back up the store to " + file + ": "
                    + e.getCause().getMessage() + ".", e);
        } catch (IOException e) {
            throw new StoreException("Countersign could not back up the store to " + file + ": " + e.getMessage()
                    + ".", e);
        } finally {
            try {
                Files.deleteIfExists(partial);
            } catch (IOException ignored) {
                // the move failed already and said why
            }
        }
    }

    static void restore(Database database, Path file) {
        String where = database.location().describe();
        boolean sqliteBackup = isSqlite(file);
        if (!sqliteBackup) {
            try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                header(file, in.readLine());
            } catch (IOException e) {
                throw new IllegalArgumentException("The file " + file + " is not a Countersign backup: it starts with"
                        + " neither a SQLite header nor a " + FORMAT + " line.", e);
            }
        }
        if (sqliteBackup != (database.dialect() == Dialect.SQLITE)) {
            throw new IllegalArgumentException("The backup " + file + " is of a " + (sqliteBackup ? "SQLite"
                    : "PostgreSQL") + " store; restore it into a " + (sqliteBackup ? "SQLite" : "PostgreSQL")
                    + " store.");
        }
        List<String> live = OlderProcesses.live(database);
        if (!live.isEmpty()) {
            throw new StoreUnavailableException("The store " + where + " is in use (" + String.join("; ", live)
                    + "); stop every Countersign process on it before restoring into it.");
        }
        database.read("look whether the store is empty", connection -> {
            refuseUnlessEmpty(connection, where);
            return null;
        });
        if (sqliteBackup) {
            refuseOtherVersion(file, sqliteVersions(file));
            // SQLite's backup API takes its own locks: on a connection in auto-commit
            database.read("restore the store from " + file, connection -> {
                try (Statement restore = connection.createStatement()) {
                    restore.executeUpdate("restore from " + file.toAbsolutePath());
                }
                return null;
            });
            return;
        }
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            JsonNode header = header(file, in.readLine());
            refuseOtherVersion(file, versions(header));
            database.write("restore the store from " + file, connection -> {
                try {
                    load(connection, file, in);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return null;
            });
        } catch (UncheckedIOException e) {
            throw new StoreException("Countersign could not read the backup " + file + ": "
                    + e.getCause().getMessage() + ".", e);
        } catch (IOException e) {
            throw new StoreException("Countersign could not read the backup " + file + ": " + e.getMessage() + ".",
                    e);
        }
    }

    private static void export(Connection connection, Path file) throws SQLException, IOException {
        connection.setAutoCommit(false);
        connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        connection.setReadOnly(true);
        try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW);
             JsonGenerator json = new JsonFactory().createGenerator(out, JsonEncoding.UTF8)) {
            json.setRootValueSeparator(null);
            json.writeStartObject();
            json.writeStringField("format", FORMAT);
            json.writeStringField("database", "postgresql");
            json.writeArrayFieldStart("versions");
            for (String version : historyVersions(connection)) {
                json.writeString(version);
            }
            json.writeEndArray();
            json.writeEndObject();
            for (String table : tablesInOrder(connection)) {
                try (Statement select = connection.createStatement();
                     ResultSet rows = select.executeQuery("SELECT * FROM " + quoted(table))) {
                    ResultSetMetaData meta = rows.getMetaData();
                    json.writeRaw('\n');
                    json.writeStartObject();
                    json.writeStringField("table", table);
                    json.writeArrayFieldStart("columns");
                    for (int column = 1; column <= meta.getColumnCount(); column++) {
                        json.writeString(meta.getColumnName(column));
                    }
                    json.writeEndArray();
                    json.writeEndObject();
                    while (rows.next()) {
                        json.writeRaw('\n');
                        json.writeStartArray();
                        for (int column = 1; column <= meta.getColumnCount(); column++) {
                            json.writeObject(rows.getObject(column));
                        }
                        json.writeEndArray();
                    }
                }
            }
            json.writeRaw('\n');
            json.flush();
            // the backup is on disk before it is named as one
            out.flush();
        } finally {
            connection.commit();
            connection.setReadOnly(false);
            connection.setAutoCommit(true);
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
    }

    /**
     * Deletes the rows the migrations put in a new store and inserts the backup's, then moves each sequence on. The
     * tables' own triggers are off while it does (in its transaction, so for no one else): rows come back as they
     * were stored, including those the guards of later writes would refuse to be written anew, such as a waiting
     * card without the decision that made it or an older build's rows.
     */
    private static void load(Connection connection, Path file, BufferedReader in) throws SQLException, IOException {
        List<String> tables = tablesInOrder(connection);
        triggers(connection, tables, "DISABLE");
        try (Statement delete = connection.createStatement()) {
            for (int i = tables.size() - 1; i >= 0; i--) {
                delete.executeUpdate("DELETE FROM " + quoted(tables.get(i)));
            }
        }
        Set<String> restored = new LinkedHashSet<>();
        PreparedStatement insert = null;
        int[] kinds = null;
        try {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.isEmpty()) {
                    continue;
                }
                JsonNode node = JSON.readTree(line);
                if (node.isObject()) {
                    String table = node.path("table").asText();
                    if (!tables.contains(table) || !restored.add(table)) {
                        throw new IllegalArgumentException("The backup " + file + " holds a table " + table
                                + " that this store does not have; it was not made by this version of Countersign.");
                    }
                    List<String> columns = new ArrayList<>();
                    node.path("columns").forEach(column -> columns.add(column.asText()));
                    if (insert != null) {
                        insert.executeBatch();
                        insert.close();
                    }
                    insert = connection.prepareStatement("INSERT INTO " + quoted(table) + " ("
                            + String.join(", ", columns.stream().map(StoreBackup::quoted).toList()) + ") VALUES ("
                            + String.join(", ", Collections.nCopies(columns.size(), "?")) + ")");
                    kinds = columnKinds(connection, table, columns);
                } else if (insert != null) {
                    for (int i = 0; i < kinds.length; i++) {
                        bind(insert, i + 1, kinds[i], node.get(i));
                    }
                    insert.addBatch();
                }
            }
            if (insert != null) {
                insert.executeBatch();
            }
        } finally {
            if (insert != null) {
                insert.close();
            }
        }
        moveSequencesOn(connection, tables);
        triggers(connection, tables, "ENABLE");
    }

    /** Switches the tables' own triggers ({@code DISABLE} or {@code ENABLE}); only the tables' owner may. */
    private static void triggers(Connection connection, List<String> tables, String how) throws SQLException {
        try (Statement alter = connection.createStatement()) {
            for (String table : tables) {
                alter.executeUpdate("ALTER TABLE " + quoted(table) + " " + how + " TRIGGER USER");
            }
        }
    }

    private static void bind(PreparedStatement insert, int index, int kind, JsonNode value) throws SQLException {
        if (value == null || value.isNull()) {
            insert.setNull(index, kind);
        } else if (kind == Types.BINARY || kind == Types.VARBINARY || kind == Types.LONGVARBINARY) {
            insert.setBytes(index, Base64.getDecoder().decode(value.asText()));
        } else if (value.isBoolean()) {
            insert.setBoolean(index, value.booleanValue());
        } else if (value.isIntegralNumber()) {
            insert.setLong(index, value.longValue());
        } else if (value.isNumber()) {
            insert.setDouble(index, value.doubleValue());
        } else {
            insert.setObject(index, value.asText(), kind);
        }
    }

    private static int[] columnKinds(Connection connection, String table, List<String> columns) throws SQLException {
        Map<String, Integer> kinds = new HashMap<>();
        try (ResultSet rows = connection.getMetaData().getColumns(null, connection.getSchema(), table, "%")) {
            while (rows.next()) {
                kinds.put(rows.getString("COLUMN_NAME"), rows.getInt("DATA_TYPE"));
            }
        }
        int[] result = new int[columns.size()];
        for (int i = 0; i < result.length; i++) {
            Integer kind = kinds.get(columns.get(i));
            if (kind == null) {
                throw new IllegalArgumentException("The backup's table " + table + " has a column " + columns.get(i)
                        + " that this store does not have; it was not made by this version of Countersign.");
            }
            result[i] = kind;
        }
        return result;
    }

    /** A serial column's sequence continues after the highest restored value. */
    private static void moveSequencesOn(Connection connection, List<String> tables) throws SQLException {
        for (String table : tables) {
            try (ResultSet columns = connection.getMetaData().getColumns(null, connection.getSchema(), table, "%")) {
                while (columns.next()) {
                    if ("YES".equals(columns.getString("IS_AUTOINCREMENT"))) {
                        String column = columns.getString("COLUMN_NAME");
                        try (PreparedStatement move = connection.prepareStatement("SELECT setval(pg_get_serial_sequence(?,"
                                + " ?), COALESCE(MAX(" + quoted(column) + "), 1), MAX(" + quoted(column) + ") IS NOT NULL)"
                                + " FROM " + quoted(table))) {
                            move.setString(1, quoted(table));
                            move.setString(2, column);
                            move.executeQuery().close();
                        }
                    }
                }
            }
        }
    }

    /** Every table of the store but the migration history, each after the tables its foreign keys name. */
    private static List<String> tablesInOrder(Connection connection) throws SQLException {
        Set<String> tables = new TreeSet<>();
        try (ResultSet rows = connection.getMetaData().getTables(null, connection.getSchema(), "%",
                new String[] {"TABLE"})) {
            while (rows.next()) {
                tables.add(rows.getString("TABLE_NAME"));
            }
        }
        tables.remove(HISTORY);
        Map<String, Set<String>> needs = new LinkedHashMap<>();
        for (String table : tables) {
            Set<String> referenced = new TreeSet<>();
            try (ResultSet keys = connection.getMetaData().getImportedKeys(null, connection.getSchema(), table)) {
                while (keys.next()) {
                    String other = keys.getString("PKTABLE_NAME");
                    if (!other.equals(table)) {
                        referenced.add(other);
                    }
                }
            }
            needs.put(table, referenced);
        }
        List<String> order = new ArrayList<>();
        while (!needs.isEmpty()) {
            String next = needs.entrySet().stream().filter(entry -> order.containsAll(entry.getValue()))
                    .map(Map.Entry::getKey).findFirst()
                    .orElseThrow(() -> new IllegalStateException("foreign keys in a cycle: " + needs.keySet()));
            order.add(next);
            needs.remove(next);
        }
        return order;
    }

    private static void refuseUnlessEmpty(Connection connection, String where) throws SQLException {
        for (String table : WORK) {
            try (Statement count = connection.createStatement();
                 ResultSet any = count.executeQuery("SELECT 1 FROM " + table + " LIMIT 1")) {
                if (any.next()) {
                    throw new IllegalArgumentException("The store " + where + " already holds " + table + "; restore"
                            + " into a new store (a new file, or an empty database or schema), never over one in use.");
                }
            }
        }
    }

    private static void refuseOtherVersion(Path file, Set<String> versions) {
        if (!versions.equals(Migrations.VERSIONS)) {
            throw new IllegalArgumentException("The backup " + file + " was taken at schema version "
                    + highest(versions) + " and this Countersign's is " + highest(Migrations.VERSIONS)
                    + "; restore it with the version of Countersign that took it, then open the store with this one"
                    + " to migrate it.");
        }
    }

    private static String highest(Set<String> versions) {
        return versions.stream().max(Comparator.comparingInt(Integer::parseInt)).orElse("none");
    }

    private static Set<String> historyVersions(Connection connection) throws SQLException {
        Set<String> versions = new TreeSet<>(Comparator.comparingInt(Integer::parseInt));
        try (Statement select = connection.createStatement();
             ResultSet rows = select.executeQuery("SELECT version FROM " + HISTORY
                     + " WHERE success AND version IS NOT NULL")) {
            while (rows.next()) {
                versions.add(rows.getString(1));
            }
        }
        return versions;
    }

    private static Set<String> sqliteVersions(Path file) {
        try (Connection backup = DriverManager.getConnection("jdbc:sqlite:file:" + file.toAbsolutePath()
                + "?mode=ro")) {
            return historyVersions(backup);
        } catch (SQLException e) {
            throw new IllegalArgumentException("The file " + file + " is not a Countersign backup: "
                    + OpenFailures.databaseMessage(e) + ".", e);
        }
    }

    private static JsonNode header(Path file, String line) {
        try {
            JsonNode header = line == null ? null : JSON.readTree(line);
            if (header != null && FORMAT.equals(header.path("format").asText())) {
                return header;
            }
        } catch (IOException e) {
            // not JSON: not a backup either
        }
        throw new IllegalArgumentException("The file " + file + " is not a Countersign backup: it starts with neither"
                + " a SQLite header nor a " + FORMAT + " line.");
    }

    private static Set<String> versions(JsonNode header) {
        Set<String> versions = new LinkedHashSet<>();
        header.path("versions").forEach(version -> versions.add(version.asText()));
        return versions;
    }

    private static boolean isSqlite(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return Arrays.equals(in.readNBytes(SQLITE_HEADER.length), SQLITE_HEADER);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("The backup " + file + " does not exist.", e);
        } catch (IOException e) {
            throw new IllegalArgumentException("The backup " + file + " cannot be read: " + e.getMessage() + ".", e);
        }
    }

    private static String quoted(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }
}
