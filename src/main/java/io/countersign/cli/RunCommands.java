package io.countersign.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.RunSummary;
import io.countersign.engine.port.WaitingRun;
import io.countersign.engine.state.DamagedRunException;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.InputValidation;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.service.DecidedRun;
import io.countersign.service.InboxOrder;
import io.countersign.service.NotPermittedException;
import io.countersign.service.RunCard;
import io.countersign.service.RunExecution;
import io.countersign.service.RunTimeline;
import io.countersign.service.StartedRun;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The operator's commands: {@code run}, {@code inbox}, {@code show}, {@code decide}, {@code input}, {@code settle}. */
final class RunCommands {
    private static final Set<RunTimeline.Kind> HAPPENINGS = EnumSet.of(RunTimeline.Kind.DECISION,
            RunTimeline.Kind.EVENT);

    private RunCommands() {
    }

    @Command(name = "run", description = "Start a run of an agent and drive it to its first pause or end, or leave"
            + " it to a worker with --queue.")
    static final class Start extends Subcommand {
        @Option(names = "--agent", required = true, paramLabel = "NAME", description = "The agent configuration.")
        String agent;

        @Option(names = "--prompt", required = true, paramLabel = "TEXT", description = "What the run is asked.")
        String prompt;

        @Option(names = "--unattended", description = "Offer only the tools that never wait for a person, so the"
                + " run never pauses.")
        boolean unattended;

        @Option(names = "--queue", description = "Record the run as queued; a worker (countersign worker) runs it.")
        boolean queue;

        @Override
        CountersignRuntime.Work work() {
            // a queued run is a row for a worker: this process drives nothing
            return queue ? CountersignRuntime.Work.ADMINISTER : CountersignRuntime.Work.RUN_AGENTS;
        }

        @Override
        public Integer call() {
            StartedRun started = queue ? runtime().execution().enqueue(actor(), agent, prompt, unattended)
                    : runtime().runs().start(actor(), agent, prompt, unattended);
            print(Views.object().put("runId", started.runId()).put("status", started.status().code()));
            return unavailableIfProviderFailed(this, started.runId(), started.status());
        }
    }

    @Command(name = "inbox", description = "The runs that wait for a person, oldest first, each with its card and"
            + " deadline (a run whose stored state is damaged with what is damaged instead).")
    static final class Inbox extends Subcommand {
        @Option(names = "--sort", paramLabel = "ORDER", defaultValue = "waiting", converter = DeadlineCommands.InboxSort.class,
                description = "waiting (oldest first) or deadline (escalated, then the least time left, first).")
        InboxOrder order;

        @Override
        public Integer call() {
            ArrayNode cards = Views.array();
            List<List<String>> rows = new ArrayList<>();
            Instant now = Instant.now();
            for (WaitingRun waiting : runtime().runs().inbox(actor(), order)) {
                Optional<RunCard> card;
                try {
                    // A run decided since the list was read has no card any more.
                    card = runtime().runs().card(actor(), waiting.runId());
                } catch (DamagedRunException damaged) {
                    cards.add(Views.object().put("runId", waiting.runId()).put("status", waiting.status().code())
                            .put("agent", waiting.agent()).put("initiator", waiting.initiator())
                            .put("waitingSince", Views.time(waiting.waitingSince()))
                            .put("damage", damaged.damage()));
                    rows.add(List.of(waiting.runId(), waiting.status().code(), waiting.agent(), waiting.initiator(),
                            Views.time(waiting.waitingSince()), Views.settleHint(waiting.runId(), true), "",
                            "", ""));
                    continue;
                }
                card.ifPresent(found -> {
                    cards.add(Views.card(found).set("deadline", Views.deadline(waiting.deadline(), now)));
                    rows.add(List.of(found.runId(), found.status().code(), found.agent(), found.initiator(),
                            Views.time(found.waitingSince()), waitingFor(found), Integer.toString(found.refused()
                                    .size()), Views.deadlineColumn(waiting.deadline(), now), found.digest()));
                });
            }
            // decided, and waiting for a process that can connect the servers of its calls: no card, a reason
            for (DecidedRun decided : runtime().runs().waitingForServers(actor())) {
                cards.add(Views.decided(decided));
                rows.add(List.of(decided.runId(), RunStatus.RUNNING.code(), decided.agent(), decided.initiator(),
                        Views.time(decided.decidedAt()), decided.reason(), "", "", ""));
            }
            // stopped with a call whose outcome is unknown: nothing to decide, a run for a person to settle
            for (RunSummary flagged : runtime().runs().toSettle(actor())) {
                cards.add(Views.toSettle(flagged));
                rows.add(List.of(flagged.runId(), flagged.status().code(), flagged.agent(), flagged.initiator(),
                        Views.time(flagged.updatedAt()), Views.settleHint(flagged.runId(), flagged.damaged()), "", "",
                        ""));
            }
            return print(cards, new Output.Table(List.of("runId", "status", "agent", "initiator", "waitingSince",
                    "waitingFor", "refused", "deadline", "digest"), rows));
        }

        private static String waitingFor(RunCard card) {
            return card.input() != null ? "input: " + card.input().tool()
                    : card.pending().stream().map(call -> call.index() + ":" + call.tool())
                    .collect(Collectors.joining(", "));
        }
    }

    @Command(name = "show", description = "A run with its card (while it waits), transcript, call history and"
            + " events.")
    static final class Show extends Subcommand {
        @Parameters(paramLabel = "RUN", description = "The run's id.")
        String runId;

        @Override
        public Integer call() {
            RunTimeline timeline = runtime().runs().timeline(actor(), runId);
            RunExecution execution = runtime().execution().execution(actor(), runId);
            Optional<RunCard> card;
            try {
                card = runtime().runs().card(actor(), runId);
            } catch (NotPermittedException cannotDecide) {
                // Whoever may read the timeline but not the inbox sees the run without its card.
                card = Optional.empty();
            }
            ObjectNode node = Views.object().put("runId", timeline.runId()).put("status", timeline.status().code())
                    .put("agent", timeline.agent()).put("initiator", timeline.initiator())
                    .put("startedAt", Views.time(timeline.startedAt()))
                    .put("updatedAt", Views.time(execution.updatedAt())).put("unattended", execution.unattended())
                    .put("failure", timeline.failure()).put("iterations", execution.iterations());
            node.putObject("tokens").put("prompt", execution.promptTokens())
                    .put("completion", execution.completionTokens());
            Views.strings(node, "unknownOutcomeCalls", execution.unknownOutcomeCalls());
            node.set("card", card.<JsonNode>map(found -> Views.card(found).set("deadline", Views.deadline(
                    runtime().runs().deadline(actor(), runId).orElse(null), Instant.now())))
                    .orElse(Output.JSON.nullNode()));
            if (card.isEmpty() && timeline.status() == RunStatus.RUNNING) {
                runtime().runs().waitingForServers(actor()).stream()
                        .filter(decided -> decided.runId().equals(runId)).findFirst()
                        .ifPresent(decided -> node.set("decided", Views.decided(decided)));
            }
            ArrayNode transcript = node.putArray("transcript");
            ArrayNode events = node.putArray("events");
            timeline.entries().forEach(entry -> (HAPPENINGS.contains(entry.kind()) ? events : transcript)
                    .add(Views.entry(entry)));
            ObjectNode history = node.putObject("history").put("complete", execution.historyComplete());
            ArrayNode calls = history.putArray("calls");
            execution.calls().forEach(call -> calls.add(Views.call(call)));
            return print(node, Output.Table.of(entries(timeline)));
        }

        private static ArrayNode entries(RunTimeline timeline) {
            ArrayNode entries = Views.array();
            timeline.entries().forEach(entry -> entries.add(Views.entry(entry)));
            return entries;
        }
    }

    /** A verdict on one waiting call. */
    enum Verdict {
        APPROVE, DENY
    }

    @Command(name = "decide", description = "Decide the approval card of a waiting run, on the digest of the card"
            + " you read (countersign inbox or show); or, with --all-matching, every card of an agent or a tool.")
    static final class Decide extends Subcommand {
        @Parameters(paramLabel = "RUN", arity = "0..1", description = "The run's id.")
        String runId;

        @Option(names = "--digest", paramLabel = "D", description = "The card's digest as read.")
        String digest;

        @Mixin
        BatchDecide matching;

        @ArgGroup(exclusive = true, multiplicity = "1")
        Verdicts verdicts;

        @Option(names = "--reason", paramLabel = "TEXT", description = "Why calls are denied; the model reads it.")
        String reason;

        @Option(names = "--queue", description = "Commit the decision and leave carrying it out to a worker.")
        boolean queue;

        @Mixin
        DecisionEdits changes;

        static final class Verdicts {
            @Option(names = "--approve-all", required = true, description = "Approve every waiting call.")
            boolean approveAll;

            @Option(names = "--deny-all", required = true, description = "Deny every waiting call.")
            boolean denyAll;

            @Option(names = "--verdict", required = true, paramLabel = "INDEX=approve|deny",
                    description = "A verdict on one waiting call; give one for each.")
            Map<Integer, Verdict> each;
        }

        @Override
        CountersignRuntime.Work work() {
            return queue ? CountersignRuntime.Work.QUEUE_DECISIONS : CountersignRuntime.Work.DECIDE;
        }

        @Override
        public Integer call() {
            if (matching.allMatching) {
                if (runId != null || digest != null) {
                    throw CliFailure.usage("--all-matching takes no RUN and no --digest: it reads each card itself");
                }
                return matching.decide(this, verdicts.approveAll, reason, verdicts.each != null, queue);
            }
            if (runId == null || digest == null) {
                throw CliFailure.usage("decide needs RUN and --digest D (the card as read), or --all-matching");
            }
            List<Decision.CallVerdict> given = new ArrayList<>();
            if (verdicts.each != null) {
                verdicts.each.forEach((index, verdict) -> given.add(verdict == Verdict.APPROVE
                        ? Decision.CallVerdict.approve(index) : Decision.CallVerdict.deny(index, reason)));
            } else {
                for (int index : waitingIndexes()) {
                    given.add(verdicts.approveAll ? Decision.CallVerdict.approve(index)
                            : Decision.CallVerdict.deny(index, reason));
                }
            }
            changes.requireNotQueued(queue);
            DecisionResult result = queue ? runtime().execution().decideForWorker(actor(), runId, digest, given)
                    : runtime().runs().decide(actor(), runId, digest, changes.applyTo(this, runId, given),
                    changes.allowance());
            return report(this, result);
        }

        /** The calls that wait, or none when the card cannot be read: the decision then says why it is refused. */
        private List<Integer> waitingIndexes() {
            try {
                return runtime().runs().card(actor(), runId).map(card -> card.pending().stream()
                        .map(RunCard.PendingCallView::index).toList()).orElse(List.of());
            } catch (NotPermittedException e) {
                return List.of();
            }
        }
    }

    @Command(name = "input", description = "Submit the typed input a waiting run asks for, on the digest of the card"
            + " you read.")
    static final class Input extends Subcommand {
        @Parameters(paramLabel = "RUN", description = "The run's id.")
        String runId;

        @Option(names = "--digest", required = true, paramLabel = "D", description = "The card's digest as read.")
        String digest;

        @Option(names = "--data", required = true, paramLabel = "JSON", description = "The values, as a JSON object"
                + " of the form's fields.")
        String data;

        @Option(names = "--queue", description = "Commit the input and leave carrying it out to a worker.")
        boolean queue;

        @Override
        CountersignRuntime.Work work() {
            return queue ? CountersignRuntime.Work.QUEUE_DECISIONS : CountersignRuntime.Work.DECIDE;
        }

        @Override
        public Integer call() {
            JsonNode values;
            try {
                values = Output.JSON.readTree(data);
            } catch (JsonProcessingException e) {
                throw CliFailure.usage("--data is not JSON: " + e.getOriginalMessage());
            }
            if (values == null || !values.isObject()) {
                throw CliFailure.usage("--data must be a JSON object of the form's fields, like {\"summary\": \"...\"}");
            }
            DecisionResult result = queue
                    ? runtime().execution().submitInputForWorker(actor(), runId, digest, (ObjectNode) values)
                    : runtime().runs().submitInput(actor(), runId, digest, (ObjectNode) values);
            return report(this, result);
        }
    }

    /** Prints a committed decision, or ends the command with the refusal's exit code and reason. */
    static int report(Subcommand command, DecisionResult result) {
        if (result instanceof DecisionResult.Done done) {
            ObjectNode view = Views.object().put("runId", done.runId()).put("status", done.status().code())
                    .put("approved", done.approved()).put("denied", done.denied());
            // a call the decision let run that did not go through is part of the answer, not a footnote
            ArrayNode failed = view.putArray("failed");
            done.failed().forEach(call -> failed.addObject().put("tool", call.tool()).put("refused", call.refused())
                    .put("error", call.error()));
            Views.strings(view, "waitingForServers", done.waitingForServers());
            command.print(view);
            if (!done.waitingForServers().isEmpty()) {
                String servers = String.join(", ", done.waitingForServers());
                throw new CliFailure(Cli.UNAVAILABLE, "run " + done.runId() + ": the decision is committed, but MCP"
                        + " server " + servers + " did not connect here, so none of its calls ran; it is kept and"
                        + " carried out by the next command that can connect " + servers + " (countersign servers"
                        + " test " + done.waitingForServers().get(0) + " shows what is wrong)");
            }
            return unavailableIfProviderFailed(command, done.runId(), done.status());
        }
        if (result instanceof DecisionResult.PartlyApproved partly) {
            // counted and kept: the card waits for the other approvers, which is an answer, not a refusal
            ObjectNode view = Views.object().put("runId", partly.runId())
                    .put("status", RunStatus.WAITING_FOR_APPROVAL.code())
                    .put("approvals", partly.progress().approvals().size())
                    .put("required", partly.progress().required());
            Views.strings(view, "approvedBy", partly.progress().approvals().stream()
                    .map(approver -> approver.name()).toList());
            command.print(view);
            return Cli.DONE;
        }
        throw refusal(result);
    }

    private static CliFailure refusal(DecisionResult result) {
        if (result instanceof DecisionResult.Stale stale) {
            return CliFailure.refused("the card of run " + stale.runId() + " changed since it was read; its digest"
                    + " is now " + stale.currentDigest() + ": look again (countersign show " + stale.runId()
                    + ") and decide on that digest");
        }
        if (result instanceof DecisionResult.AlreadyDecided decided && decided.cancelledByHost()) {
            return CliFailure.refused("run " + decided.runId() + ": the host cancelled this call at "
                    + decided.decidedAt() + "; nothing was executed");
        }
        if (result instanceof DecisionResult.AlreadyDecided decided) {
            return CliFailure.refused("run " + decided.runId() + " was already decided by " + decided.decidedBy()
                    + " at " + decided.decidedAt() + " (" + decided.summary() + "); nothing was executed for this"
                    + " decision");
        }
        if (result instanceof DecisionResult.FourEyes fourEyes) {
            return CliFailure.refused("run " + fourEyes.runId() + " needs four eyes: whoever started it may deny it,"
                    + " but someone else must approve it");
        }
        if (result instanceof DecisionResult.NotPermitted notPermitted) {
            return CliFailure.refused(notPermitted.reason());
        }
        if (result instanceof DecisionResult.InvalidInput invalid) {
            return CliFailure.usage("the input does not fit the form of run " + invalid.runId() + ": "
                    + invalid.errors().stream().map(RunCommands::describe).collect(Collectors.joining("; ")));
        }
        if (result instanceof DecisionResult.ServersNotConnected notConnected) {
            return new CliFailure(Cli.UNAVAILABLE, "run " + notConnected.runId() + ": MCP server "
                    + String.join(", ", notConnected.servers()) + " did not connect, so nothing was decided and the"
                    + " card still waits (countersign servers test " + notConnected.servers().get(0)
                    + " shows what is wrong)");
        }
        if (result instanceof DecisionResult.EditRefused refused) {
            return DecisionEdits.refusal(refused);
        }
        DecisionResult.NotWaiting notWaiting = (DecisionResult.NotWaiting) result;
        if (notWaiting.status() == null) {
            return CliFailure.usage("no run has the id \"" + notWaiting.runId() + "\"");
        }
        return CliFailure.refused("run " + notWaiting.runId() + " does not wait for this decision: it is "
                + notWaiting.status().code() + (notWaiting.failure() == null ? "" : ": " + notWaiting.failure()));
    }

    private static String describe(InputValidation.FieldError error) {
        return error.message();
    }

    /** A run that failed because its model provider could not be used ends the command as unavailable. */
    private static int unavailableIfProviderFailed(Subcommand command, String runId, RunStatus status) {
        if (status != RunStatus.FAILED) {
            return Cli.DONE;
        }
        String failure = command.runtime().runs().timeline(command.actor(), runId).failure();
        if (failure != null && failure.startsWith("provider_")) {
            throw new CliFailure(Cli.UNAVAILABLE, "run " + runId + " failed: " + failure);
        }
        return Cli.DONE;
    }
}
