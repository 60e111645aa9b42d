package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.PageRequest;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.stats.DecisionStatsQuery;
import io.countersign.engine.stats.StatsDimension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every operation of the service layer, called for real by an operator, a supervisor, an admin, a worker and a
 * user the store does not know, against the role table of the specification (section 1), written out here on its own so
 * that a change to {@link Operation} cannot agree with itself.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RoleMatrixTest {
    /** Who may do what, as the specification's role table says. */
    private static final Map<Operation, Set<Role>> SPECIFIED = new EnumMap<>(Map.ofEntries(
            // operator: works the inbox, decides, fills input, starts runs; may see what happened to them
            Map.entry(Operation.LIST_AGENTS, EnumSet.of(Role.OPERATOR, Role.SUPERVISOR, Role.ADMIN)),
            Map.entry(Operation.START_RUN, EnumSet.of(Role.OPERATOR, Role.ADMIN)),
            Map.entry(Operation.VIEW_INBOX, EnumSet.of(Role.OPERATOR, Role.ADMIN)),
            Map.entry(Operation.DECIDE, EnumSet.of(Role.OPERATOR, Role.ADMIN)),
            Map.entry(Operation.SUBMIT_INPUT, EnumSet.of(Role.OPERATOR, Role.ADMIN)),
            Map.entry(Operation.SETTLE_UNKNOWN_OUTCOME, EnumSet.of(Role.OPERATOR, Role.ADMIN)),
            Map.entry(Operation.EXTEND_DEADLINE, EnumSet.of(Role.OPERATOR, Role.ADMIN)),
            Map.entry(Operation.VIEW_GRANTS, EnumSet.of(Role.OPERATOR, Role.SUPERVISOR, Role.ADMIN)),
            Map.entry(Operation.REVOKE_GRANT, EnumSet.of(Role.OPERATOR, Role.ADMIN)),
            Map.entry(Operation.SWITCH_GRANTS, EnumSet.of(Role.ADMIN)),
            // worker: a worker process's login carries out what others decided, and nothing else; an operator or
            // admin may run their own worker on one desk
            Map.entry(Operation.RUN_WORKER, EnumSet.of(Role.WORKER, Role.OPERATOR, Role.ADMIN)),
            // supervisor: browses events and decisions, exports them, opens timelines; never decides or changes
            Map.entry(Operation.VIEW_TIMELINE, EnumSet.of(Role.OPERATOR, Role.SUPERVISOR, Role.ADMIN)),
            Map.entry(Operation.QUERY_EVENTS, EnumSet.of(Role.SUPERVISOR, Role.ADMIN)),
            Map.entry(Operation.VIEW_SETTING_CHANGES, EnumSet.of(Role.SUPERVISOR, Role.ADMIN)),
            Map.entry(Operation.VERIFY_AUDIT, EnumSet.of(Role.SUPERVISOR, Role.ADMIN)),
            Map.entry(Operation.VIEW_DECISION_STATS, EnumSet.of(Role.SUPERVISOR, Role.ADMIN)),
            // admin: tools, server records, users and roles, configurations, retention
            Map.entry(Operation.PURGE_EVENTS, EnumSet.of(Role.ADMIN)),
            Map.entry(Operation.VIEW_TOOL_SETTINGS, EnumSet.of(Role.ADMIN)),
            Map.entry(Operation.CHANGE_TOOL_SETTINGS, EnumSet.of(Role.ADMIN)),
            Map.entry(Operation.MANAGE_USERS, EnumSet.of(Role.ADMIN)),
            Map.entry(Operation.VIEW_WEBHOOKS, EnumSet.of(Role.ADMIN)),
            Map.entry(Operation.CHANGE_WEBHOOKS, EnumSet.of(Role.ADMIN)),
            Map.entry(Operation.CHANGE_TELEMETRY, EnumSet.of(Role.ADMIN)),
            // server records name commands, addresses and variables: admins only; supervisors read the changes
            Map.entry(Operation.VIEW_SERVERS, EnumSet.of(Role.ADMIN)),
            Map.entry(Operation.CHANGE_SERVERS, EnumSet.of(Role.ADMIN)),
            Map.entry(Operation.TEST_SERVERS, EnumSet.of(Role.ADMIN)),
            Map.entry(Operation.IMPORT_AGENTS, EnumSet.of(Role.ADMIN)),
            Map.entry(Operation.EXPORT_AGENTS, EnumSet.of(Role.ADMIN))));

    DemoStore demo;
    Map<Operation, Function<Actor, Object>> calls;

    @BeforeAll
    void open(@TempDir Path folder) {
        demo = new DemoStore(folder);
        String approval = demo.runOf("release-notes-bot");
        String input = demo.runOf("intake-form");
        String stale = "0".repeat(64);
        calls = new EnumMap<>(Map.ofEntries(
                Map.entry(Operation.LIST_AGENTS, actor -> demo.runtime.runs().agents(actor)),
                Map.entry(Operation.START_RUN, actor -> demo.runtime.execution().enqueue(actor, "workspace-auditor",
                        "What is there?", true)),
                Map.entry(Operation.VIEW_INBOX, actor -> demo.runtime.runs().inbox(actor)),
                Map.entry(Operation.DECIDE, actor -> demo.runtime.runs().decide(actor, approval, stale,
                        List.of(Decision.CallVerdict.approve(0)))),
                Map.entry(Operation.SUBMIT_INPUT, actor -> demo.runtime.runs().submitInput(actor, input, stale,
                        new ObjectMapper().createObjectNode())),
                Map.entry(Operation.VIEW_TIMELINE, actor -> demo.runtime.runs().timeline(actor, approval)),
                Map.entry(Operation.QUERY_EVENTS, actor -> demo.runtime.events().page(actor, EventFilter.all(),
                        PageRequest.first(10))),
                Map.entry(Operation.PURGE_EVENTS, actor -> demo.runtime.events().purgeOlderThan(actor,
                        Duration.ofDays(3650))),
                Map.entry(Operation.VERIFY_AUDIT, actor -> demo.runtime.audit().verify(actor, null, null)),
                Map.entry(Operation.VIEW_DECISION_STATS, actor -> demo.runtime.decisionStats().decisions(actor,
                        DecisionStatsQuery.all(StatsDimension.TOOL))),
                Map.entry(Operation.VIEW_TOOL_SETTINGS, actor -> demo.runtime.settings().tools(actor)),
                Map.entry(Operation.CHANGE_TOOL_SETTINGS, actor -> demo.runtime.settings().change(actor,
                        List.of(new SettingRequest.ToolEnabled("web_fetch", true)))),
                Map.entry(Operation.VIEW_SETTING_CHANGES, actor -> demo.runtime.settings().changes(actor, 10)),
                Map.entry(Operation.MANAGE_USERS, actor -> demo.runtime.users().list(actor)),
                Map.entry(Operation.VIEW_WEBHOOKS, actor -> demo.runtime.webhooks().list(actor)),
                Map.entry(Operation.CHANGE_WEBHOOKS, actor -> demo.runtime.webhooks().remove(actor, "wh-none")),
                Map.entry(Operation.CHANGE_TELEMETRY, actor -> demo.runtime.settings().telemetry(actor)),
                Map.entry(Operation.VIEW_SERVERS, actor -> demo.runtime.servers().list(actor)),
                Map.entry(Operation.CHANGE_SERVERS, actor -> demo.runtime.servers().remove(actor, "no-such-server")),
                Map.entry(Operation.TEST_SERVERS, actor -> demo.runtime.servers().test(actor, "no-such-server")),
                Map.entry(Operation.SETTLE_UNKNOWN_OUTCOME, actor -> demo.runtime.execution()
                        .settleUnknownOutcome(actor, approval, false)),
                Map.entry(Operation.EXTEND_DEADLINE, actor -> demo.runtime.runs().extend(actor, approval)),
                Map.entry(Operation.VIEW_GRANTS, actor -> demo.runtime.grants().orElseThrow().list(actor)),
                Map.entry(Operation.REVOKE_GRANT, actor -> {
                    try {
                        return demo.runtime.grants().orElseThrow().revoke(actor, "no-such-grant");
                    } catch (IllegalArgumentException allowedButNoSuchGrant) {
                        return allowedButNoSuchGrant.getMessage();
                    }
                }),
                Map.entry(Operation.SWITCH_GRANTS, actor -> demo.runtime.grants().orElseThrow()
                        .switchGrants(actor, "workspace-auditor", true)),
                Map.entry(Operation.RUN_WORKER, actor -> demo.runtime.execution().worker(actor,
                        RunWorker.Options.defaults(), progress -> { })),
                Map.entry(Operation.IMPORT_AGENTS, actor -> demo.runtime.agents().importJson(actor, "{}")),
                Map.entry(Operation.EXPORT_AGENTS, actor -> demo.runtime.agents().exportJson(actor))));
    }

    @AfterAll
    void close() {
        demo.close();
    }

    @Test
    void everyOperationHasItsRolesSpecifiedAndACallThatExercisesIt() {
        assertThat(SPECIFIED.keySet()).containsExactlyInAnyOrder(Operation.values());
        assertThat(calls.keySet()).containsExactlyInAnyOrder(Operation.values());
    }

    @TestFactory
    Stream<DynamicTest> eachOperationIsAllowedOrRefusedForEachKindOfUser() {
        Map<String, Actor> users = Map.of("operator", demo.operator, "supervisor", demo.supervisor,
                "admin", demo.admin, "worker", demo.worker,
                "unknown user", demo.nobody);
        return Arrays.stream(Operation.values()).flatMap(operation -> users.entrySet().stream().map(user -> {
            boolean allowed = user.getValue().roles().stream().anyMatch(SPECIFIED.get(operation)::contains);
            return dynamicTest(operation + " by " + user.getKey() + " is " + (allowed ? "allowed" : "refused"),
                    () -> assertThat(refused(operation, user.getValue())).isEqualTo(!allowed));
        }));
    }

    @Test
    void aWorkerIsRefusedADecisionInOneSentenceNamingTheRolesItNeeds() {
        String approval = demo.runOf("release-notes-bot");
        String digest = demo.runtime.runs().card(demo.admin, approval).orElseThrow().digest();
        Object refused = demo.runtime.runs().decide(demo.worker, approval, digest,
                List.of(Decision.CallVerdict.approve(0)));
        assertThat(refused).isEqualTo(new DecisionResult.NotPermitted(approval,
                "wendy (worker) may not decide; that needs the role admin or operator"));
    }

    /** True when the service refused the call for the actor's roles, whichever way the operation answers that. */
    private boolean refused(Operation operation, Actor actor) {
        try {
            Object answer = calls.get(operation).apply(actor);
            return answer instanceof DecisionResult.NotPermitted;
        } catch (NotPermittedException e) {
            assertThat(e.operation()).isEqualTo(operation.name().toLowerCase(Locale.ROOT));
            return true;
        }
    }
}
