package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.Json;
import io.countersign.engine.Role;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.RunTelemetry;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.engine.tool.WithdrawableCaller;
import io.countersign.service.gateway.GatewayService;
import io.countersign.service.gateway.GatewaySession;
import io.countersign.service.gateway.HostAnswer;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.countersign.tools.NetworkntSchemaValidator;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A child process of {@link HostCancelRaceTest}, in one of two parts. {@code gateway}: holds {@code N} host
 * connections of the gateway profile {@code desk}, each with one call of the approval-bound ledger tool waiting as a
 * card; writes the cards ({@code <run> <digest>} per line), prints "ready", and at "go" has every host cancel its
 * call, in the card list's order, as the MCP gateway does on {@code notifications/cancelled}; then waits until each
 * call has its answer. {@code person}: prints "ready", and at "go" approves every card of the list in its order,
 * writing {@code <run> <answer>} per line.
 *
 * <p>Arguments: the store, the ledger file, the card list, the result file, {@code gateway} or {@code person}, and
 * for the gateway the number of cards.
 */
public final class HostCancelRacer {
    static final String PROFILE = "desk";
    static final String OWNER = "gwen";

    private HostCancelRacer() {
    }

    public static void main(String[] args) throws Exception {
        Path ledger = Path.of(args[1]);
        Path cards = Path.of(args[2]);
        StoreLocation location = StoreLocation.resolve(args[0], Map.of());
        if (args[4].equals("person")) {
            person(location, ledger, cards, Path.of(args[3]));
            return;
        }
        try (Store store = Store.open(location)) {
            hosts(store, ledger, cards, Path.of(args[3]), Integer.parseInt(args[5]));
        }
    }

    /** Makes the store's profile and people: the owner who serves hosts, and olga who decides. */
    static void prepare(Store store) {
        Actor admin = store.users().signedIn("admin");
        store.users().add(OWNER, Set.of(Role.OPERATOR), admin);
        ServiceRig.operators(store, "olga");
        new GatewayProfiles(store.configurations(), store.servers(), store.users()).add(admin, PROFILE, List.of(),
                List.of(LedgerTool.NAME), "local", false, null, null);
    }

    private static void hosts(Store store, Path ledger, Path cards, Path results, int count) throws Exception {
        GatewayService gateway = new GatewayService(store, ToolRegistry.of(new LedgerTool(ledger)),
                new NetworkntSchemaValidator(), InvocationRules.none(), ServerConnections.NONE, RunTelemetry.NONE,
                Clock.systemUTC(), IdGenerator.random(), Locale.ENGLISH);
        var profiled = gateway.profile(store.users().find(OWNER).orElseThrow(), PROFILE);
        List<GatewaySession> sessions = new ArrayList<>();
        List<WithdrawableCaller> callers = new ArrayList<>();
        List<CompletableFuture<HostAnswer>> answers = new ArrayList<>();
        List<AutoCloseable> feeds = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                GatewaySession session = gateway.connect(profiled, "racer " + i);
                sessions.add(session);
                feeds.add(gateway.onRunChange(session::poke));
                WithdrawableCaller caller = new WithdrawableCaller();
                callers.add(caller);
                answers.add(session.call(LedgerTool.NAME, Json.mapper().createObjectNode()
                        .put("entry", "host " + i), caller));
            }
            List<String> waiting = new ArrayList<>();
            for (GatewaySession session : sessions) {
                waiting.add(session.runId() + " " + awaitCard(store, session.runId()).pausedState().digest());
            }
            Files.write(cards, waiting, StandardCharsets.UTF_8);
            System.out.println("ready");
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            for (int i = 0; i < count; i++) {
                callers.get(i).withdraw();
                sessions.get(i).withdraw(callers.get(i));
            }
            List<String> heard = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                HostAnswer answer = answers.get(i).get(2, TimeUnit.MINUTES);
                heard.add(sessions.get(i).runId() + " " + (answer.text().contains("cancelled it before it ran")
                        ? "not-started" : answer.text().startsWith("Error: declined by host") ? "withdrawn"
                        : answer.error() ? "error " + answer.text() : "ran"));
            }
            Files.write(results, heard, StandardCharsets.UTF_8);
        } finally {
            for (AutoCloseable feed : feeds) {
                feed.close();
            }
            sessions.forEach(GatewaySession::close);
        }
    }

    private static StoredRun awaitCard(Store store, String runId) throws InterruptedException {
        for (int tries = 0; tries < 600; tries++) {
            StoredRun run = store.runs().find(runId).orElseThrow();
            if (run.status() == RunStatus.WAITING_FOR_APPROVAL) {
                return run;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("run " + runId + " did not wait for approval");
    }

    private static void person(StoreLocation location, Path ledger, Path cards, Path results) throws Exception {
        try (ServiceRig rig = ServiceRig.open(location, List.of(new LedgerTool(ledger)), LedgerTool.scripts())) {
            System.out.println("ready");
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            Actor olga = Actor.of("olga", Role.OPERATOR);
            List<String> answers = new ArrayList<>();
            for (String card : Files.readAllLines(cards)) {
                String[] runAndDigest = card.split(" ");
                DecisionResult result = rig.service.decide(olga, runAndDigest[0], runAndDigest[1],
                        List.of(Decision.CallVerdict.approve(0)));
                answers.add(runAndDigest[0] + " " + (result instanceof DecisionResult.AlreadyDecided decided
                        ? "already-decided " + decided.decidedBy()
                        : result.getClass().getSimpleName().toLowerCase(Locale.ROOT)));
            }
            Files.write(results, answers, StandardCharsets.UTF_8);
        }
    }
}
