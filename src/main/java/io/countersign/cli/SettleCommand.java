package io.countersign.cli;

import io.countersign.engine.port.DecisionResult;
import io.countersign.runtime.CountersignRuntime;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code settle}: a person settles a run whose call outcome a crash made unknown. */
@Command(name = "settle", description = "Settle a run whose call outcome a crash made unknown: wait on its card"
        + " again (--retry), or end it as failed (--fail).")
final class SettleCommand extends Subcommand {
    @Parameters(paramLabel = "RUN", description = "The run's id.")
    String runId;

    @ArgGroup(exclusive = true, multiplicity = "1")
    How how;

    static final class How {
        @Option(names = "--retry", required = true, description = "Show the card again; approving runs the"
                + " calls again.")
        boolean retry;

        @Option(names = "--fail", required = true, description = "End the run as failed.")
        boolean fail;
    }

    @Override
    CountersignRuntime.Work work() {
        // it reconciles first, so that a run whose process just stopped is flagged before it is settled
        return CountersignRuntime.Work.DECIDE;
    }

    @Override
    public Integer call() {
        DecisionResult result = runtime().execution().settleUnknownOutcome(actor(), runId, how.retry);
        if (result instanceof DecisionResult.NotWaiting ended && ended.failure() != null) {
            throw CliFailure.refused("run " + runId + " cannot be retried: " + ended.failure() + " (the run ended as"
                    + " gateway_stopped)");
        }
        if (result instanceof DecisionResult.NotWaiting notFlagged && notFlagged.status() != null) {
            throw CliFailure.refused("run " + runId + " has no call whose outcome is unknown (it is "
                    + notFlagged.status().code() + "); there is nothing to settle");
        }
        return RunCommands.report(this, result);
    }
}
