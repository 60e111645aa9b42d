package io.countersign.store;

import java.sql.Connection;
import java.sql.SQLException;

/** A piece of work on one connection; the caller owns the transaction around it. */
@FunctionalInterface
interface SqlWork<T> {

    T run(Connection connection) throws SQLException;
}
