package io.countersign.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.port.DecisionResult;
import io.countersign.service.BatchDecisions;
import io.countersign.service.BatchPlan;
import io.countersign.service.BatchResult;
import java.io.Console;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * {@code decide --all-matching}: every approval card waiting now of an agent and/or with a call of a tool,
 * approved or denied with one reason. It prints what will happen per card first and asks on the terminal before
 * anything is decided; a script says {@code --yes}, and without a terminal and without it nothing is decided. Each
 * card is then decided on its own, on the digest it was shown with; cards decided elsewhere or changed meanwhile
 * are named, and stay as they are.
 */
final class BatchDecide {
    @Option(names = "--all-matching", description = "Decide every approval card waiting now that matches --agent"
            + " and --tool, instead of one RUN.")
    boolean allMatching;

    @Option(names = "--agent", paramLabel = "NAME", description = "With --all-matching: the cards of this agent.")
    String agent;

    @Option(names = "--tool", paramLabel = "NAME", description = "With --all-matching: the cards with a waiting"
            + " call of this tool.")
    String tool;

    @Option(names = "--yes", description = "With --all-matching: decide without asking (for scripts).")
    boolean yes;

    /** Decides the matching cards: every waiting call approved, or denied with the reason. */
    int decide(Subcommand command, boolean approve, String reason, boolean each, boolean queue) {
        if (agent == null && tool == null) {
            throw CliFailure.usage("--all-matching needs --agent NAME or --tool NAME (or both), so that a"
                    + " slip never decides the whole inbox; nothing was decided");
        }
        if (each || queue) {
            throw CliFailure.usage("--all-matching decides every waiting call of each card with --approve-all or"
                    + " --deny-all, here in this process: it does not take " + (each ? "--verdict" : "--queue")
                    + "; nothing was decided");
        }
        if (!approve && (reason == null || reason.isBlank())) {
            throw CliFailure.usage("--deny-all with --all-matching needs --reason TEXT, which every run's model"
                    + " reads; nothing was decided");
        }
        BatchDecisions batch = new BatchDecisions(command.runtime().runs());
        BatchPlan plan = batch.plan(command.actor(), batch.matching(command.actor(), agent, tool));
        if (plan.cards().isEmpty()) {
            throw CliFailure.refused("no approval card waits that matches" + (agent == null ? "" : " --agent "
                    + agent) + (tool == null ? "" : " --tool " + tool) + "; nothing was decided");
        }
        if (!yes) {
            confirm(plan, approve);
        }
        BatchResult result = batch.decide(command.actor(), plan, approve, reason);
        ObjectNode view = Views.object();
        view.set("plan", planView(plan));
        view.set("result", resultView(result));
        command.print(view);
        List<String> left = new ArrayList<>();
        result.decidedElsewhere().forEach(outcome -> left.add("run " + outcome.runId() + " was "
                + elsewhere(outcome.result())));
        result.changed().forEach(outcome -> left.add("run " + outcome.runId() + " changed since it was read"));
        result.refused().forEach(outcome -> left.add("run " + outcome.runId() + " was refused: "
                + (outcome.failure() != null ? outcome.failure() : outcome.result().getClass().getSimpleName()
                .toLowerCase(Locale.ROOT))));
        if (!left.isEmpty()) {
            throw CliFailure.refused(left.size() + " of " + plan.cards().size() + " cards were not decided: "
                    + String.join("; ", left) + "; they stay as they are");
        }
        return Cli.DONE;
    }

    /** Asks on the terminal; without one, a script must say --yes. */
    private void confirm(BatchPlan plan, boolean approve) {
        Console console = System.console();
        String what = (approve ? "approve " : "deny ") + plan.waitingCalls() + " calls on " + plan.cards().size()
                + " cards";
        if (console == null) {
            throw CliFailure.usage("decide --all-matching would " + what + ", and there is no terminal to confirm"
                    + " on: add --yes to decide from a script; nothing was decided");
        }
        console.writer().println("This will " + what + ":");
        for (BatchPlan.Group group : plan.groups()) {
            console.writer().println("  " + group.count() + " \u00d7 " + group.describe());
        }
        if (plan.refusedCalls() > 0) {
            console.writer().println("  " + plan.refusedCalls() + " calls a rule refused stay refused.");
        }
        String answer = console.readLine("Type yes to go on: ");
        if (answer == null || !answer.strip().equalsIgnoreCase("yes")) {
            throw CliFailure.refused("not confirmed; nothing was decided");
        }
    }

    private static String elsewhere(DecisionResult result) {
        if (result instanceof DecisionResult.AlreadyDecided decided) {
            return (decided.cancelledByHost() ? "cancelled by its MCP host" : "decided by " + decided.decidedBy())
                    + " at " + decided.decidedAt();
        }
        DecisionResult.NotWaiting notWaiting = (DecisionResult.NotWaiting) result;
        return notWaiting.status() == null ? "not found" : "no longer waiting (" + notWaiting.status().code() + ")";
    }

    private static ObjectNode planView(BatchPlan plan) {
        ObjectNode view = Views.object().put("cards", plan.cards().size()).put("waitingCalls", plan.waitingCalls())
                .put("refusedCalls", plan.refusedCalls());
        ArrayNode groups = view.putArray("groups");
        for (BatchPlan.Group group : plan.groups()) {
            ObjectNode line = groups.addObject().put("count", group.count()).put("agent", group.first().agent())
                    .put("summary", group.describe());
            Views.strings(line, "runs", group.runIds());
            Views.strings(line, "calls", group.first().calls().stream().map(BatchPlan.Call::describe).toList());
            Views.strings(line, "refused", group.first().refused().stream().map(BatchPlan.Refused::describe)
                    .toList());
        }
        Views.strings(view, "gone", plan.gone());
        return view;
    }

    private static ArrayNode resultView(BatchResult result) {
        ArrayNode cards = Views.array();
        for (BatchResult.Outcome outcome : result.outcomes()) {
            ObjectNode line = cards.addObject().put("runId", outcome.runId()).put("agent", outcome.agent())
                    .put("answer", outcome.done() ? "done" : outcome.counted() ? "counted"
                            : outcome.decidedElsewhere() ? "decided_elsewhere" : outcome.changed() ? "changed"
                            : "refused");
            if (outcome.result() instanceof DecisionResult.AlreadyDecided decided) {
                line.put("decidedBy", decided.decidedBy());
            }
            if (outcome.failure() != null) {
                line.put("error", outcome.failure());
            }
        }
        return cards;
    }
}
