package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.decision.Decision;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.StoreLocation;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/** A runtime over a fresh SQLite file in a folder, holding the demo workspace, and the people who use it. */
final class DemoStore implements AutoCloseable {
    final CountersignRuntime runtime;
    final Path folder;
    final Actor admin;
    final Actor operator;
    final Actor supervisor;
    final Actor worker;
    final Actor nobody = new Actor("nobody", Set.of());

    DemoStore(Path folder) {
        this.folder = folder;
        runtime = CountersignRuntime.open(new StoreLocation.SqliteFile(folder.resolve("countersign.db")));
        admin = runtime.localUser();
        runtime.ensureDemo(folder);
        operator = runtime.user("maria");
        supervisor = runtime.store().users().add("sam", Set.of(Role.SUPERVISOR), admin);
        worker = runtime.store().users().add("wendy", Set.of(Role.WORKER), admin);
    }

    /** The id of the demo run of an agent (the newest, if there are several). */
    String runOf(String agent) {
        return runtime.runs().recent(admin, 100).stream().filter(run -> run.agent().equals(agent)).findFirst()
                .orElseThrow().runId();
    }

    /** The operator denies the release-notes card's write with this reason, as the demo's card stands. */
    void operatorDeniesTheReleaseNotes(String reason) {
        String runId = runOf("release-notes-bot");
        String digest = runtime.runs().card(admin, runId).orElseThrow().digest();
        runtime.runs().decide(operator, runId, digest, List.of(Decision.CallVerdict.deny(0, reason)));
    }

    @Override
    public void close() {
        runtime.close();
    }
}
