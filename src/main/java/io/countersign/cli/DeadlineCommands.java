package io.countersign.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.service.DeadlineApplied;
import io.countersign.service.DeadlineExtension;
import io.countersign.service.InboxOrder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Decision deadlines: {@code deadlines --once} (for cron) and {@code extend}. */
final class DeadlineCommands {
    private DeadlineCommands() {
    }

    @Command(name = "deadlines", description = "Apply the fallback of every waiting run whose deadline passed (deny,"
            + " cancel or escalate), exactly once whichever process does it; the console and the worker do this at"
            + " start and every few seconds, this is for stores no such process watches (cron).")
    static final class Sweep extends Subcommand {
        @Option(names = "--once", required = true, description = "Sweep once and exit (the only mode).")
        boolean once;

        @Override
        CountersignRuntime.Work work() {
            // a denial carries the run on, so this process drives runs (and recovers those stopped ones left)
            return CountersignRuntime.Work.RUN_AGENTS;
        }

        @Override
        public Integer call() {
            ArrayNode applied = Views.array();
            List<List<String>> rows = new ArrayList<>();
            for (DeadlineApplied each : runtime().applyDeadlines()) {
                String outcome = each.outcome().name().toLowerCase(Locale.ROOT).replace('_', '-');
                applied.add(Views.object().put("runId", each.runId()).put("outcome", outcome)
                        .put("detail", each.detail()));
                rows.add(List.of(each.runId(), outcome, each.detail() == null ? "" : each.detail()));
            }
            return print(applied, new Output.Table(List.of("runId", "outcome", "detail"), rows));
        }
    }

    @Command(name = "extend", description = "Move the deadline of a waiting run's card once by its configured span;"
            + " recorded with who and when. A second extend is refused.")
    static final class Extend extends Subcommand {
        @Parameters(paramLabel = "RUN", description = "The run's id.")
        String runId;

        @Override
        public Integer call() {
            DeadlineExtension result = runtime().runs().extend(actor(), runId);
            if (result instanceof DeadlineExtension.Refused refused) {
                throw CliFailure.refused(refused.reason());
            }
            DeadlineExtension.Extended extended = (DeadlineExtension.Extended) result;
            return print(Views.object().put("runId", runId).put("result", "extended")
                    .set("deadline", Views.deadline(extended.deadline(), Instant.now())));
        }
    }

    /** {@code --sort waiting|deadline}, with the choices named when the value is none of them. */
    static final class InboxSort implements CommandLine.ITypeConverter<InboxOrder> {
        @Override
        public InboxOrder convert(String value) {
            for (InboxOrder order : InboxOrder.values()) {
                if (order.name().toLowerCase(Locale.ROOT).equals(value)) {
                    return order;
                }
            }
            throw new CommandLine.TypeConversionException("--sort must be waiting or deadline, got \"" + value
                    + "\"");
        }
    }
}
