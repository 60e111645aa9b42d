package io.countersign.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A prepared statement whose parameters are named ({@code :runId}) rather than counted, so that a reader can match
 * each value to its place in the SQL. A name may appear more than once; every name must be bound before the
 * statement runs. A colon inside a quoted literal or doubled ({@code ::} casts) is left alone. The writes of a
 * {@link WritesInOneStatement} may be part of the SQL, with their {@code ?} parameters, bound by
 * {@link #bindWrites}. Plain JDBC
 * underneath, for the cold start: JDBI 3, tried for the same reads, loaded 852 classes more (2,757 against 1,905
 * to open a store and list its waiting runs) and cost about 0.75 s more CPU.
 */
final class NamedStatement implements AutoCloseable {
    /** Each SQL text as translated once: its JDBC text and where each name went. */
    private static final Map<String, Parsed> PARSED = new ConcurrentHashMap<>();
    /** Texts kept translated; a store has about a hundred, more only where SQL is built from a list. */
    private static final int PARSED_LIMIT = 1_000;

    /** Where the {@code ?} parameters of the SQL went, as if they were one name. */
    private static final String WRITES = "?";

    private final PreparedStatement statement;
    private final Map<String, List<Integer>> places;
    private final Set<String> bound = new HashSet<>();

    private NamedStatement(PreparedStatement statement, Map<String, List<Integer>> places) {
        this.statement = statement;
        this.places = places;
    }

    private record Parsed(String jdbc, Map<String, List<Integer>> places) {
        static Parsed of(String sql) {
            Map<String, List<Integer>> places = new LinkedHashMap<>();
            String jdbc = positional(sql, places);
            return new Parsed(jdbc, Collections.unmodifiableMap(places));
        }
    }

    /** Prepares the SQL. */
    static NamedStatement prepare(Connection connection, String sql) throws SQLException {
        Parsed parsed = PARSED.get(sql);
        if (parsed == null) {
            parsed = Parsed.of(sql);
            if (PARSED.size() < PARSED_LIMIT) {
                PARSED.put(sql, parsed);
            }
        }
        PreparedStatement statement = connection.prepareStatement(parsed.jdbc());
        return new NamedStatement(statement, parsed.places());
    }

    /**
     * The SQL with each {@code :name} replaced by {@code ?}, and where each name went, counted from 1; where its own
     * {@code ?} parameters went under {@code "?"}.
     */
    static String positional(String sql, Map<String, List<Integer>> places) {
        StringBuilder jdbc = new StringBuilder(sql.length());
        boolean quoted = false;
        int count = 0;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
            }
            if (!quoted && c == '?') {
                places.computeIfAbsent(WRITES, name -> new ArrayList<>()).add(++count);
                jdbc.append(c);
                continue;
            }
            boolean starts = !quoted && c == ':' && i + 1 < sql.length()
                    && Character.isJavaIdentifierStart(sql.charAt(i + 1)) && (i == 0 || sql.charAt(i - 1) != ':');
            if (!starts) {
                jdbc.append(c);
                continue;
            }
            int end = i + 1;
            while (end < sql.length() && Character.isJavaIdentifierPart(sql.charAt(end))) {
                end++;
            }
            places.computeIfAbsent(sql.substring(i + 1, end), name -> new ArrayList<>()).add(++count);
            jdbc.append('?');
            i = end - 1;
        }
        return jdbc.toString();
    }

    NamedStatement set(String name, String value) throws SQLException {
        return bind(name, (jdbc, place) -> jdbc.setString(place, value));
    }

    NamedStatement set(String name, long value) throws SQLException {
        return bind(name, (jdbc, place) -> jdbc.setLong(place, value));
    }

    NamedStatement set(String name, int value) throws SQLException {
        return bind(name, (jdbc, place) -> jdbc.setInt(place, value));
    }

    NamedStatement set(String name, boolean value) throws SQLException {
        return bind(name, (jdbc, place) -> jdbc.setBoolean(place, value));
    }

    /** An integer, or SQL NULL for {@code null}. */
    NamedStatement set(String name, Integer value) throws SQLException {
        return value == null ? bind(name, (jdbc, place) -> jdbc.setNull(place, Types.INTEGER))
                : set(name, value.intValue());
    }

    /** A number, or SQL NULL for {@code null}. */
    NamedStatement set(String name, Long value) throws SQLException {
        return value == null ? bind(name, (jdbc, place) -> jdbc.setNull(place, Types.BIGINT))
                : set(name, value.longValue());
    }

    /** A time as the store keeps it, in nanoseconds since the epoch, or SQL NULL for {@code null}. */
    NamedStatement set(String name, Instant value) throws SQLException {
        return value == null ? bind(name, (jdbc, place) -> jdbc.setNull(place, Types.BIGINT))
                : set(name, Nanos.of(value));
    }

    /** Binds the writes that the SQL holds as they rendered themselves, their parameters one after the other. */
    NamedStatement bindWrites(WritesInOneStatement writes) throws SQLException {
        List<Integer> at = places.getOrDefault(WRITES, List.of());
        int first = at.isEmpty() ? 1 : at.get(0);
        boolean inTurn = at.isEmpty() || at.get(at.size() - 1) == first + at.size() - 1;
        if (!inTurn || writes.bind(statement, first) != first + at.size()) {
            throw new IllegalArgumentException("the writes' parameters are not the statement's ? parameters, one"
                    + " after the other");
        }
        if (!at.isEmpty()) {
            bound.add(WRITES);
        }
        return this;
    }

    /** Sets one value at every place of the name. */
    private NamedStatement bind(String name, Setter setter) throws SQLException {
        List<Integer> at = places.get(name);
        if (at == null) {
            throw new IllegalArgumentException("the statement has no parameter :" + name);
        }
        for (int place : at) {
            setter.set(statement, place);
        }
        bound.add(name);
        return this;
    }

    @FunctionalInterface
    private interface Setter {
        void set(PreparedStatement statement, int place) throws SQLException;
    }

    int executeUpdate() throws SQLException {
        return checked().executeUpdate();
    }

    /** The rows; closed with the statement. */
    ResultSet executeQuery() throws SQLException {
        return checked().executeQuery();
    }

    private PreparedStatement checked() {
        if (bound.size() < places.size()) {
            List<String> missing = places.keySet().stream().filter(name -> !bound.contains(name)).toList();
            throw new IllegalStateException("parameters left unbound: " + missing);
        }
        return statement;
    }

    @Override
    public void close() throws SQLException {
        statement.close();
    }
}
