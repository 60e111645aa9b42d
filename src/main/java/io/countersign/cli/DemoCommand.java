package io.countersign.cli;

import io.countersign.engine.Actor;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.StoreLocation;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code demo}: the scripted demo workspace, in the chosen store. */
@Command(name = "demo", description = "Create the demo workspace in a store that has no agents yet: sample files,"
        + " scripted agents (they replay fixed turns) and runs that leave the inbox showing each kind of card."
        + " Admins only.")
final class DemoCommand extends Subcommand {
    private static final String ALREADY_THERE = "the store already has agents, so no demo was created";

    @Option(names = "--folder", paramLabel = "DIR", description = "Where the sample files go (default: the folder"
            + " of a SQLite store; required for PostgreSQL).")
    Path folder;

    @Override
    CountersignRuntime.Work work() {
        // the demo starts runs of local tools, which this process drives to their first pause
        return CountersignRuntime.Work.DECIDE;
    }

    @Override
    public Integer call() {
        Actor actor = actor();
        if (!actor.isAdmin()) {
            throw CliFailure.refused(actor.name() + " may not create the demo workspace; that needs the role admin");
        }
        if (folder == null && !(runtime().store().location() instanceof StoreLocation.SqliteFile)
                && !runtime().store().configurations().listAgents().isEmpty()) {
            // nothing will be created, so no folder is needed: a second demo ends as on SQLite
            return print(Views.object().put("created", false).put("note", ALREADY_THERE));
        }
        Path where = folder != null ? folder.toAbsolutePath() : defaultFolder();
        boolean created = runtime().ensureDemo(where);
        return print(Views.object().put("created", created).put("folder", where.resolve("demo-workspace").toString())
                .put("note", created ? "the demo agents are scripted: they replay fixed turns"
                        : ALREADY_THERE));
    }

    private Path defaultFolder() {
        if (runtime().store().location() instanceof StoreLocation.SqliteFile file) {
            return file.file().toAbsolutePath().getParent();
        }
        throw CliFailure.usage("a demo in a PostgreSQL store needs --folder DIR for its sample files");
    }
}
