package io.countersign.store;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.sqlite.SQLiteConnection;

/**
 * The prepared statements of one SQLite connection, kept for reuse: sqlite-jdbc compiles every statement anew on
 * each {@code prepareStatement}, which was 14 % of a decision's samples outside waiting for the disk. The
 * connections of {@link #caching} answer {@code prepareStatement} with a statement whose {@code close} gives the
 * compiled one back (its rows closed, which resets it, and its parameters cleared); one that failed to run is
 * closed instead. A statement in use is out of the cache, so that work nested in another's gets one of its own.
 * The least recently used are closed past {@value #LIMIT} texts, and all close with the connection. PostgreSQL
 * needs none: pgjdbc keeps its connection's prepared statements by their SQL itself.
 */
final class StatementCache {
    /** Distinct statements kept per connection; a store uses about a hundred. */
    private static final int LIMIT = 160;
    /** From how many rows of parameters {@link #forRows} compiles a statement rather than lend a kept one. */
    static final int UNCACHED_ROWS = 64;
    /** The interfaces' methods, made accessible; see {@link #invoke}. */
    private static final Map<Method, Method> ACCESSIBLE = new ConcurrentHashMap<>();
    /** The loans' proxy class, made once: making a proxy by {@code Proxy.newProxyInstance} also walks the stack. */
    private static final Constructor<? extends PreparedStatement> LOAN = loanConstructor();

    private final Connection connection;
    private final Map<Object, Deque<PreparedStatement>> idle = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Object, Deque<PreparedStatement>> eldest) {
            if (size() <= LIMIT) {
                return false;
            }
            eldest.getValue().forEach(StatementCache::closeQuietly);
            return true;
        }
    };

    private StatementCache(Connection connection) {
        this.connection = connection;
    }

    /** A data source whose connections keep their prepared statements. */
    static DataSource caching(DataSource source) {
        return (DataSource) Proxy.newProxyInstance(StatementCache.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    Object result = invoke(source, method, args);
                    return result instanceof Connection opened ? new StatementCache(opened).connection() : result;
                });
    }

    /**
     * A statement for {@code rows} rows of parameters: one from the cache for a few, and for many (an append's
     * batches) one of SQLite's own, compiled for this batch alone, as a loan's reflective call per parameter
     * bound costs more than compiling once. The caller closes it either way.
     */
    static PreparedStatement forRows(Connection connection, String sql, int rows) throws SQLException {
        return rows >= UNCACHED_ROWS && connection.isWrapperFor(SQLiteConnection.class)
                ? connection.unwrap(SQLiteConnection.class).prepareStatement(sql)
                : connection.prepareStatement(sql);
    }

    /** The connection, with {@code prepareStatement} served from this cache and {@code close} emptying it. */
    private Connection connection() {
        InvocationHandler handler = (proxy, method, args) -> switch (method.getName()) {
            case "prepareStatement" -> take(method, args);
            case "close" -> {
                closeAll();
                yield invoke(connection, method, args);
            }
            default -> invoke(connection, method, args);
        };
        return (Connection) Proxy.newProxyInstance(StatementCache.class.getClassLoader(),
                new Class<?>[] {Connection.class}, handler);
    }

    /**
     * A kept statement for the same SQL and key request, or a new one; either way lent until its close. The plain
     * {@code prepareStatement(sql)} is keyed by its SQL alone, the same string each time, so that finding it is
     * not building and hashing a new key of the statement's length.
     */
    private PreparedStatement take(Method prepare, Object[] args) throws Throwable {
        Object key = args.length == 1 ? args[0]
                : Arrays.toString(prepare.getParameterTypes()) + Arrays.deepToString(args);
        Deque<PreparedStatement> kept = idle.get(key);
        PreparedStatement statement = kept == null ? null : kept.poll();
        if (statement == null) {
            statement = (PreparedStatement) invoke(connection, prepare, args);
        }
        return new Lent(key, statement).proxy();
    }

    /** One loan of a kept statement: closing it gives the statement back, once. */
    private final class Lent implements InvocationHandler {
        private final Object key;
        private final PreparedStatement statement;
        private ResultSet rows;
        private boolean failed;
        private boolean closed;

        Lent(Object key, PreparedStatement statement) {
            this.key = key;
            this.statement = statement;
        }

        PreparedStatement proxy() throws ReflectiveOperationException {
            return LOAN.newInstance(this);
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            String name = method.getName();
            if (method.getDeclaringClass() == Object.class) {
                // A loan is its own object: the pool finds its statements by identity, also once closed.
                return switch (name) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    default -> "a loan of " + statement;
                };
            }
            if (name.equals("close")) {
                giveBack();
                return null;
            }
            if (name.equals("isClosed") && closed) {
                return true;
            }
            if (closed) {
                throw new SQLException("the statement is closed");
            }
            if (!name.startsWith("execute")) {
                return StatementCache.invoke(statement, method, args);
            }
            // A statement whose run failed is not trusted to be reset: it is closed rather than kept.
            failed = true;
            Object result = StatementCache.invoke(statement, method, args);
            failed = false;
            if (result instanceof ResultSet opened) {
                rows = opened;
            }
            return result;
        }

        private void giveBack() throws SQLException {
            if (closed) {
                return;
            }
            closed = true;
            if (failed) {
                statement.close();
                return;
            }
            if (rows != null) {
                rows.close();
            }
            statement.clearParameters();
            statement.clearBatch();
            idle.computeIfAbsent(key, ignored -> new ArrayDeque<>(1)).push(statement);
        }
    }

    private static Constructor<? extends PreparedStatement> loanConstructor() {
        try {
            Class<? extends PreparedStatement> type = Proxy.newProxyInstance(StatementCache.class.getClassLoader(),
                    new Class<?>[] {PreparedStatement.class}, (proxy, method, args) -> null)
                    .getClass().asSubclass(PreparedStatement.class);
            Constructor<? extends PreparedStatement> constructor = type.getConstructor(InvocationHandler.class);
            // Accessible already (public, exported); set so that each loan's construction skips the access check.
            constructor.setAccessible(true);
            return constructor;
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("a proxy class has its handler's constructor", e);
        }
    }

    private void closeAll() {
        for (Iterator<Deque<PreparedStatement>> kinds = idle.values().iterator(); kinds.hasNext(); ) {
            kinds.next().forEach(StatementCache::closeQuietly);
            kinds.remove();
        }
    }

    /**
     * Calls the driver's own method. The interfaces' methods are made accessible once, so that a call does not ask
     * for its caller's class to check access: that walk of the stack was 4 % of a decision's samples.
     */
    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            Method callable = ACCESSIBLE.get(method);
            if (callable == null) {
                callable = ACCESSIBLE.computeIfAbsent(method, StatementCache::accessible);
            }
            return callable.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static Method accessible(Method method) {
        method.setAccessible(true);
        return method;
    }

    private static void closeQuietly(PreparedStatement statement) {
        try {
            statement.close();
        } catch (SQLException e) {
            // Closed with its connection anyway.
            System.getLogger(StatementCache.class.getName()).log(System.Logger.Level.DEBUG,
                    "closing a kept statement failed", e);
        }
    }
}
