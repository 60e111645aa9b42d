package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.decision.Decision;
import io.countersign.store.StoreLocation;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The child process of {@link WebhookCrashTest}. It opens the SQLite store, starts ledger runs and approves their
 * cards (each pause and decision queues its events in its own commit), then claims every queued event as a
 * delivery under way would, prints "claimed N" and waits to be killed before it sends any.
 *
 * <p>Arguments: the store file, the ledger file, how many runs, the claim's hold in milliseconds.
 */
public final class WebhookCommitter {
    private static final Actor OPERATOR = Actor.of("olga", Role.OPERATOR);

    private WebhookCommitter() {
    }

    public static void main(String[] args) throws Exception {
        try (ServiceRig rig = ServiceRig.open(new StoreLocation.SqliteFile(Path.of(args[0])),
                List.of(new LedgerTool(Path.of(args[1]))), LedgerTool.scripts())) {
            for (int i = 0; i < Integer.parseInt(args[2]); i++) {
                String runId = rig.service.start(OPERATOR, LedgerTool.ONE_PAUSE, "Record the entry", false).runId();
                String digest = rig.service.card(OPERATOR, runId).orElseThrow().digest();
                rig.service.decide(OPERATOR, runId, digest, List.of(Decision.CallVerdict.approve(0)));
            }
            int claimed = rig.store.webhooks().claim(Instant.now(), 1000,
                    Duration.ofMillis(Long.parseLong(args[3]))).size();
            System.out.println("claimed " + claimed);
            Thread.sleep(Duration.ofMinutes(5).toMillis());
        }
    }
}
