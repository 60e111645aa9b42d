package io.countersign.engine.run;

import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.port.ChatModel;
import io.countersign.engine.chat.ChatRequest;
import io.countersign.engine.port.ModelException;
import io.countersign.engine.port.RunTelemetry;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.engine.tool.ToolSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Drives a run round after round until it completes, pauses, fails or is cancelled. One round: choose the model,
 * send the transcript and the offered tools, append the model's turn, scan it for a pause, then run its calls.
 */
record Rounds(ToolRegistry registry, ChatModel chatModel, RunCancellation cancellation, PauseScan pauseScan,
              CallExecution execution) {
    private static final Logger LOG = Logger.getLogger(Rounds.class.getName());

    /** Finishes a resumed turn with the person's answer, then drives the rounds that follow. */
    RunOutcome resume(RunSegment run, AgentConfiguration roundConfiguration, List<String> offered,
                      List<PendingCall> calls, PauseAnswer answer) {
        return execution.runTurn(run, roundConfiguration, offered, calls, answer).orElseGet(() -> drive(run));
    }

    RunOutcome drive(RunSegment run) {
        while (true) {
            if (cancellation.cancelled(run.runId)) {
                return run.cancelled();
            }
            if (run.counters.iterations() >= run.configuration.maxRounds()) {
                return lastAnswer(run);
            }
            ModelConfiguration model = run.chooseModel();
            AgentConfiguration roundConfiguration = run.configurationFor(model);
            List<String> offered = run.offered(roundConfiguration);
            Reply reply = ask(run, new ChatRequest(model, run.transcript, specs(offered),
                    toolChoice(run.options, offered)));
            if (reply instanceof Reply.Failed failed) {
                return failed.outcome();
            }
            AssistantTurn turn = ((Reply.Answered) reply).turn();
            run.append(turn.toMessage());
            if (turn.toolCalls().isEmpty()) {
                return run.completed(turn.content(), false);
            }
            List<ToolCall> calls = run.route(turn.toolCalls(), offered);
            PauseScan.Result scanned = pauseScan.scan(run, roundConfiguration, model, calls, offered);
            if (scanned instanceof PauseScan.Result.Pauses pause) {
                return pause.outcome();
            }
            List<PendingCall> now = ((PauseScan.Result.RunsNow) scanned).calls();
            Optional<RunOutcome> cancelled = execution.runTurn(run, roundConfiguration, offered, now, PauseAnswer.NONE);
            if (cancelled.isPresent()) {
                return cancelled.get();
            }
        }
    }

    private RunOutcome lastAnswer(RunSegment run) {
        // The last answer goes through the PRE seam too: a round that ran on a more trusted model must not
        // hand its results to the default model only because the round cap was reached.
        Reply reply = ask(run, new ChatRequest(run.chooseModel(), run.transcript, List.of(), null));
        if (reply instanceof Reply.Failed failed) {
            return failed.outcome();
        }
        AssistantTurn turn = ((Reply.Answered) reply).turn();
        // Calls asked for in the last answer would have no results; the answer keeps only its text.
        run.append(ChatMessage.assistant(turn.content(), List.of()));
        return run.completed(turn.content(), true);
    }

    /** The model's turn, counted in the run's totals, or the run's failure when the provider or its adapter failed. */
    private sealed interface Reply {
        record Answered(AssistantTurn turn) implements Reply {
        }

        record Failed(RunOutcome outcome) implements Reply {
        }
    }

    private Reply ask(RunSegment run, ChatRequest request) {
        run.beforeModelCall();
        ModelConfiguration model = request.model();
        RunTelemetry.ModelStep step = run.trace.modelCall(model.name(), model.provider(), model.model());
        AssistantTurn turn;
        try {
            turn = chatModel.complete(request);
        } catch (ModelException e) {
            step.failed("provider_failed");
            return new Reply.Failed(run.failed("provider_failed", e.getMessage()));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "model adapter failed for run {0}: {1}",
                    new Object[] {run.runId, e.getClass().getName()});
            step.failed("provider_failed");
            return new Reply.Failed(run.failed("provider_failed", "the model adapter failed unexpectedly ("
                    + e.getClass().getSimpleName() + ")"));
        }
        step.answered(turn.usage(), turn.toolCalls().isEmpty() ? "stop" : "tool_calls");
        run.counters = run.counters.afterRound(turn.usage());
        return new Reply.Answered(turn);
    }

    private List<ToolSpec> specs(List<String> offered) {
        List<ToolSpec> specs = new ArrayList<>(offered.size());
        for (String name : offered) {
            registry.spec(name).ifPresent(specs::add);
        }
        return specs;
    }

    private static String toolChoice(RunOptions options, List<String> offered) {
        String choice = options.toolChoice();
        if (choice == null || offered.isEmpty()) {
            return null;
        }
        boolean keyword = choice.equals("auto") || choice.equals("none") || choice.equals("required");
        return keyword || offered.contains(choice) ? choice : null;
    }
}
