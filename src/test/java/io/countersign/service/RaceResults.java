package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import javax.sql.DataSource;

/** What the child processes of a race test wrote and what the store kept, read back for the test's checks. */
final class RaceResults {
    private RaceResults() {
    }

    /** A racer's answers, one {@code <run> <answer>} line per run, by run. */
    static Map<String, String> answers(Path file) throws Exception {
        Map<String, String> answers = new HashMap<>();
        for (String line : Files.readAllLines(file)) {
            int space = line.indexOf(' ');
            answers.put(line.substring(0, space), line.substring(space + 1));
        }
        return answers;
    }

    /** Who decided each run; a run with two decisions fails the test. */
    static Map<String, String> decidedBy(DataSource raw) throws Exception {
        Map<String, String> decided = new HashMap<>();
        try (Connection connection = raw.getConnection();
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT run_id, decided_by FROM decisions")) {
            while (rows.next()) {
                assertThat(decided.put(rows.getString(1), rows.getString(2))).as("second decision on %s",
                        rows.getString(1)).isNull();
            }
        }
        return decided;
    }
}
