package io.countersign.engine.port;

import io.countersign.engine.declarative.RecordedCall;
import java.time.Instant;
import java.util.List;

/** Port: the calls recorded in the stored runs' transcripts (of runs not purged), for a rule's what-if. */
@FunctionalInterface
public interface RecordedCalls {

    /** The calls of the runs updated since then, newest run first and each run's calls in order, at most limit. */
    List<RecordedCall> since(Instant since, int limit);
}
