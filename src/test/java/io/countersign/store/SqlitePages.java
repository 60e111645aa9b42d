package io.countersign.store;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Damages a real SQLite file the way a bad disk does: the b-tree page of a table overwritten with garbage. */
public final class SqlitePages {

    private SqlitePages() {
    }

    /** Overwrites the root page of the table (its b-tree header and cells) in a closed store file. */
    public static void damageRootPage(Path file, String table) throws SQLException, IOException {
        long pageSize;
        long rootPage;
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            // fold the write-ahead log into the file, so that the page damaged is the one read
            connection.createStatement().execute("PRAGMA wal_checkpoint(TRUNCATE)");
            try (ResultSet size = connection.createStatement().executeQuery("PRAGMA page_size")) {
                pageSize = size.getLong(1);
            }
            try (PreparedStatement root = connection.prepareStatement(
                    "SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = ?")) {
                root.setString(1, table);
                try (ResultSet found = root.executeQuery()) {
                    rootPage = found.getLong(1);
                }
            }
        }
        byte[] garbage = new byte[(int) pageSize];
        for (int i = 0; i < garbage.length; i++) {
            garbage[i] = (byte) (i * 37 + 11);
        }
        try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
            raw.seek((rootPage - 1) * pageSize);
            raw.write(garbage);
        }
    }
}
