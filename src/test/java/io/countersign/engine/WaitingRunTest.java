package io.countersign.engine;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.countersign.engine.port.WaitingRun;
import io.countersign.engine.state.RunStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class WaitingRunTest {
    private static final Instant NOW = Instant.parse("2026-03-01T09:00:00Z");

    @Test
    void aRunThatDoesNotWaitHasNoSummary() {
        assertThatThrownBy(() -> new WaitingRun("r1", RunStatus.COMPLETED, "writer", "maria", "Tidy",
                NOW, List.of("fs_write"), 0, "d1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("run r1 is completed, not waiting");
    }

    @Test
    void aWaitingRunWaitsOnAtLeastOneTool() {
        assertThatThrownBy(() -> new WaitingRun("r1", RunStatus.WAITING_FOR_APPROVAL, "writer", "maria",
                "Tidy", NOW, List.of(), 0, "d1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("waiting run r1 waits on no tool");
    }
}
