package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.DecisionResult;
import io.countersign.store.EmbeddedPostgresExtension;
import io.countersign.store.StoreLocation;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operator whose role an admin takes away in another process is refused on their next decision in a process
 * that stayed open all along, and the roles the store gives back later are in force as soon: no restart, on SQLite
 * (change counters polled) and on PostgreSQL (LISTEN/NOTIFY).
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class RoleRevocationTest {
    private static final Duration TIMEOUT = Duration.ofMinutes(1);
    private static final Actor OLGA = Actor.of("olga", Role.OPERATOR);

    @TempDir
    Path folder;

    @BeforeAll
    static void archiveTheChildsClasses(@TempDir Path scratch) throws Exception {
        ChildJvm.shareClassesOf(RoleRevoker.class, scratch.resolve("store.db").toString(), "ada", "ada",
                "admin,operator,supervisor");
    }

    @Test
    void aRoleRevokedInAnotherProcessIsRefusedAtOnceOnSqlite() throws Exception {
        Path file = folder.resolve("store.db");
        revokeAndDecide(new StoreLocation.SqliteFile(file), file.toString());
    }

    @Test
    void aRoleRevokedInAnotherProcessIsRefusedAtOnceOnPostgres(EmbeddedPostgres postgres) throws Exception {
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA revocation");
        }
        String url = postgres.getJdbcUrl("postgres", "postgres") + "&currentSchema=revocation";
        revokeAndDecide(new StoreLocation.Postgres(url), url);
    }

    private void revokeAndDecide(StoreLocation location, String storeArgument) throws Exception {
        try (ServiceRig rig = ServiceRig.open(location, List.of(new LedgerTool(folder.resolve("ledger.txt"))),
                LedgerTool.scripts())) {
            rig.store.users().add("ada", Set.of(Role.ADMIN), Actor.of("test-setup"));
            String first = rig.service.start(OLGA, LedgerTool.ONE_PAUSE, "Record the entry", false).runId();
            String second = rig.service.start(OLGA, LedgerTool.ONE_PAUSE, "Record another", false).runId();
            // Read as an operator, so that this process holds olga's roles when they change elsewhere.
            RunCard card = rig.service.card(OLGA, first).orElseThrow();

            awaitRolesChange(rig, () -> changeRolesElsewhere(storeArgument, "-"));
            DecisionResult refused = rig.service.decide(OLGA, first, card.digest(), approveAll(card));
            assertThat(refused).isInstanceOfSatisfying(DecisionResult.NotPermitted.class, notPermitted ->
                    assertThat(notPermitted.reason()).isEqualTo("olga (no role) may not decide; that needs the role"
                            + " admin or operator"));
            assertThatThrownBy(() -> rig.service.inbox(OLGA)).isInstanceOf(NotPermittedException.class)
                    .hasMessage("olga (no role) may not view inbox; that needs the role admin or operator");
            assertThatThrownBy(() -> rig.service.card(OLGA, second)).isInstanceOf(NotPermittedException.class);

            awaitRolesChange(rig, () -> changeRolesElsewhere(storeArgument, "operator"));
            assertThat(rig.service.decide(OLGA, first, card.digest(), approveAll(card)))
                    .isInstanceOf(DecisionResult.Done.class);
        }
    }

    /** Runs the change and waits until this process's change feed has told its user store of it. */
    private static void awaitRolesChange(ServiceRig rig, ThrowingRunnable change) throws Exception {
        CountDownLatch heard = new CountDownLatch(1);
        try (var subscription = rig.store.users().onChange(heard::countDown)) {
            change.run();
            assertThat(heard.await(5, TimeUnit.SECONDS)).as("the change feed announced the new roles").isTrue();
        }
    }

    private void changeRolesElsewhere(String store, String roles) throws Exception {
        try (ChildJvm admin = ChildJvm.start(RoleRevoker.class, folder.resolve("errors.txt"), store, "ada", "olga",
                roles)) {
            admin.awaitLine("changed", TIMEOUT);
            admin.awaitSuccess(TIMEOUT);
        }
    }

    private static List<Decision.CallVerdict> approveAll(RunCard card) {
        return card.pending().stream().map(call -> Decision.CallVerdict.approve(call.index())).toList();
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
