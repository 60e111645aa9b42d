package io.countersign.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.store.LoginPlan;
import io.countersign.store.OlderProcessesException;
import io.countersign.store.Store;
import io.countersign.store.StoreCheck;
import io.countersign.store.StoreOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code store check}: whether the store's file is whole; {@code store init}: a shared store the database guards;
 * {@code store upgrade}: migrate now; {@code store backup} and {@code store restore}.
 */
final class StoreCommands {

    private StoreCommands() {
    }

    @Command(name = "store", description = "The store itself.", subcommands = {Check.class, Init.class,
            Upgrade.class, Backup.class, Restore.class})
    static final class StoreGroup extends Subcommand {
        @Override
        public Integer call() {
            throw CliFailure.usage("say what to do with the store: countersign store check, store init, store"
                    + " upgrade, store backup or store restore");
        }
    }

    @Command(name = "check", description = "Check the store's SQLite file page by page and index by index (PRAGMA"
            + " integrity_check) and say what was found: exit 0 when whole, 5 when damaged (restore a backup). On"
            + " PostgreSQL the check does not apply: the server keeps its own files.")
    static final class Check extends Subcommand {
        @Override
        public Integer call() {
            StoreCheck check = runtime().store().check();
            ObjectNode view = Views.object().put("store", check.store()).put("applies", check.applies())
                    .put("whole", check.whole());
            Views.strings(view, "problems", check.problems());
            if (!check.applies()) {
                view.put("note", "the check does not apply to PostgreSQL: its server keeps and checks its own files");
            }
            print(view, Output.Table.of(view));
            if (check.whole()) {
                return Cli.DONE;
            }
            spec.commandLine().getErr().println("countersign: the store file " + check.store() + " is damaged ("
                    + check.problems().size() + (check.problems().size() == 1 ? " problem" : " problems")
                    + "); restore it from a backup");
            return Cli.DAMAGED;
        }
    }

    @Command(name = "upgrade", description = "Bring the store's schema to this version now, as any command's first"
            + " open would: refused (exit 4), naming them, while processes of an older Countersign still have the"
            + " store open, unless --wait or --force.")
    static final class Upgrade extends Subcommand {
        /** How often --wait looks again: a process on this machine is known stopped at once, others by their lease. */
        private static final Duration LOOK_AGAIN = Duration.ofSeconds(2);

        @Option(names = "--force", description = "Migrate although older processes still have the store open; they"
                + " may fail at their next write.")
        boolean force;

        @Option(names = "--wait", description = "Wait until the older processes have stopped, then migrate.")
        boolean await;

        @Override
        public Integer call() throws InterruptedException {
            StoreOptions options = StoreOptions.defaults().withoutDrivingRuns();
            boolean told = false;
            while (true) {
                try (Store store = Store.open(root().location(), force ? options.migratingUnderOlderProcesses()
                        : options)) {
                    return print(Views.object().put("store", store.location().describe()).put("upToDate", true));
                } catch (OlderProcessesException e) {
                    if (!await) {
                        throw e;
                    }
                    if (!told) {
                        spec.commandLine().getErr().println("countersign: waiting for the older processes on the"
                                + " store to stop: " + String.join("; ", e.processes()));
                        told = true;
                    }
                    Thread.sleep(LOOK_AGAIN.toMillis());
                }
            }
        }
    }

    @Command(name = "backup", description = "Write a backup of the whole store to a new file, as one moment saw"
            + " it: a SQLite store is copied by SQLite into a store file, a PostgreSQL store's tables are exported"
            + " from one snapshot. Restore it with store restore, by this version of Countersign.")
    static final class Backup extends Subcommand {
        @Parameters(paramLabel = "FILE", description = "The new file to write; an existing one is refused.")
        Path file;

        @Override
        public Integer call() {
            Store store = runtime().store();
            store.backup(file);
            return print(Views.object().put("store", store.location().describe()).put("backup", file.toString()));
        }
    }

    @Command(name = "restore", description = "Restore a backup that store backup wrote into a new, empty store of"
            + " the same database (a new SQLite file, or an empty PostgreSQL database or schema), taken at this"
            + " version's schema; no other Countersign process may have the store open.")
    static final class Restore extends Subcommand {
        @Parameters(paramLabel = "FILE", description = "The backup.")
        Path file;

        @Override
        public Integer call() {
            try (Store store = Store.open(root().location(), StoreOptions.defaults().withoutDrivingRuns())) {
                store.restore(file);
                return print(Views.object().put("store", store.location().describe()).put("restored",
                        file.toString()));
            }
        }
    }

    @Command(name = "init", description = "Make a PostgreSQL store one the database itself guards: the group roles"
            + " countersign_operator, _supervisor, _admin and _worker, every table owned by countersign_owner, each"
            + " group's privileges and the decision policy. Run once by the database's owner (a login with"
            + " CREATEROLE), and again after an upgrade; it prints the SQL it ran. The login becomes an admin. On a"
            + " store from Countersign 0.1, whose people are operating-system names, it shows the plan that makes"
            + " them database logins and changes nothing until given --adopt-logins.")
    static final class Init extends Subcommand {
        @Option(names = "--adopt-logins", description = "On a store from Countersign 0.1: give each stored person"
                + " the login of their name (created where missing), keeping their roles, and make the owner an"
                + " admin when no stored admin has a login; then initialise as usual.")
        boolean adoptLogins;

        @Override
        public Integer call() {
            Store store = runtime().store();
            Optional<LoginPlan> plan = store.loginPlan();
            if (plan.isPresent()) {
                // nobody signs in before the adoption: the plan names the owner instead
                ObjectNode view = Views.object().put("store", runtime().describeStore());
                Views.loginPlan(view, plan.get());
                if (!adoptLogins) {
                    view.put("note", "nothing was changed; the owner of the store's tables applies this plan with"
                            + " countersign store init --adopt-logins");
                    return print(view, Output.Table.of(view));
                }
                Views.strings(view, "statements", store.adoptLogins());
                return print(view, Output.Table.of(view));
            }
            // first, so that a new store's first user is this login, an admin whose roles init grants
            Actor owner = actor();
            List<String> statements = store.initShared();
            ObjectNode view = Views.object().put("store", runtime().describeStore()).put("admin", owner.name());
            Views.strings(view, "statements", statements);
            return print(view, Output.Table.of(view));
        }
    }
}
