package io.countersign.engine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Everything logged through java.util.logging (which {@link System.Logger} writes to), at every level, and
 * everything written to {@code System.out} and {@code System.err} while open; the console sees none of it.
 */
final class CapturedOutput implements AutoCloseable {
    private final Logger root = Logger.getLogger("");
    private final Handler[] rootHandlers = root.getHandlers();
    private final Level rootLevel = root.getLevel();
    private final PrintStream out = System.out;
    private final PrintStream err = System.err;
    private final ByteArrayOutputStream written = new ByteArrayOutputStream();
    private final StringBuffer logged = new StringBuffer();
    private final Handler capture = new Handler() {
        private final SimpleFormatter formatter = new SimpleFormatter();

        @Override
        public void publish(LogRecord record) {
            // The formatted line includes the parameters and the whole stack trace of a thrown exception.
            logged.append(formatter.format(record));
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private CapturedOutput() {
        for (Handler handler : rootHandlers) {
            root.removeHandler(handler);
        }
        capture.setLevel(Level.ALL);
        root.addHandler(capture);
        root.setLevel(Level.ALL);
        PrintStream into = new PrintStream(written, true, StandardCharsets.UTF_8);
        System.setOut(into);
        System.setErr(into);
    }

    static CapturedOutput start() {
        return new CapturedOutput();
    }

    /** What was logged so far, one formatted record after another. */
    String logged() {
        return logged.toString();
    }

    /** What was written to {@code System.out} and {@code System.err} so far. */
    String written() {
        return written.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        System.setOut(out);
        System.setErr(err);
        root.removeHandler(capture);
        root.setLevel(rootLevel);
        for (Handler handler : rootHandlers) {
            root.addHandler(handler);
        }
    }
}
