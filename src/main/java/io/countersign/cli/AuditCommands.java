package io.countersign.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.event.AuditAnchor;
import io.countersign.engine.event.AuditFinding;
import io.countersign.engine.event.AuditPurge;
import io.countersign.engine.event.AuditReport;
import java.io.PrintWriter;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code audit verify} and {@code audit anchor}: the chain over events, decisions and purges. */
final class AuditCommands {

    private AuditCommands() {
    }

    @Command(name = "audit", description = "The audit chain over governance events, decisions and purges:"
            + " verify it, or print its head to keep elsewhere. Supervisors and admins.",
            subcommands = {Verify.class, Anchor.class})
    static final class AuditGroup extends Subcommand {
        @Override
        public Integer call() {
            throw CliFailure.usage("say what to do with the audit chain: countersign audit verify, or countersign"
                    + " audit anchor");
        }
    }

    @Command(name = "verify", description = "Walk the audit chain and compare every row it covers with what is"
            + " stored: exit 0 when it verifies, 6 when a row or entry was changed, inserted, removed or"
            + " reordered (one line each on the error stream).")
    static final class Verify extends Subcommand {
        @Option(names = "--since", paramLabel = "TIME", description = "Read only the rows recorded from this instant"
                + " or UTC date on; the links of older entries are still checked.")
        String since;

        @Option(names = "--anchor", paramLabel = "SEQ:HASH", description = "An anchor printed earlier by countersign"
                + " audit anchor: its entry must still be in the chain with this hash.")
        String anchor;

        @Override
        public Integer call() {
            AuditAnchor kept = anchor == null ? null : AuditAnchor.parse(anchor);
            AuditReport report = runtime().audit().verify(actor(), EventCommands.instant("--since", since), kept);
            ObjectNode view = Views.object().put("verified", report.verified()).put("begins", report.beginning())
                    .put("rowsChecked", report.rowsChecked());
            report.head().ifPresentOrElse(head -> view.put("upTo", head.at().toString()).put("head", head.anchor()
                    .text()), () -> view.putNull("upTo").putNull("head"));
            view.put("since", report.since() == null ? null : report.since().toString());
            Views.strings(view, "purges", report.purges().stream().map(AuditPurge::sentence).toList());
            ArrayNode findings = view.putArray("findings");
            for (AuditFinding finding : report.findings()) {
                findings.addObject().put("entry", finding.seq()).put("row", finding.rowId())
                        .put("message", finding.message());
            }
            print(view, Output.Table.of(Views.object().put("verified", report.verified())
                    .put("begins", report.beginning()).put("upTo", view.path("upTo").asText(null))
                    .put("head", view.path("head").asText(null))));
            if (report.verified()) {
                return Cli.DONE;
            }
            PrintWriter err = spec.commandLine().getErr();
            report.findings().forEach(finding -> err.println("countersign: audit: " + finding.message()));
            err.flush();
            return Cli.TAMPERED;
        }
    }

    @Command(name = "anchor", description = "Print the audit chain's head (SEQ:HASH) to keep elsewhere, a ticket or"
            + " another system; countersign audit verify --anchor SEQ:HASH later proves nothing before it was"
            + " rewritten.")
    static final class Anchor extends Subcommand {
        @Override
        public Integer call() {
            Optional<AuditAnchor> head = runtime().audit().anchor(actor());
            if (head.isEmpty()) {
                throw CliFailure.refused("the audit chain has no entry yet: there is nothing to anchor");
            }
            ObjectNode view = Views.object().put("anchor", head.get().text()).put("entry", head.get().seq())
                    .put("hash", head.get().hash());
            return print(view, Output.Table.of(view));
        }
    }
}
