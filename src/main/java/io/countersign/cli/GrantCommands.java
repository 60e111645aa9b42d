package io.countersign.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.grant.Grant;
import io.countersign.service.Grants;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code grants}, {@code grants list}, {@code grants revoke} and {@code grants switch}. */
final class GrantCommands {

    private GrantCommands() {
    }

    @Command(name = "grants", description = "Standing grants made with decide --allow: list, revoke, switch off per"
            + " agent.", subcommands = {GrantsGroup.List.class, GrantsGroup.Revoke.class, GrantsGroup.Switch.class})
    static final class GrantsGroup extends Subcommand {
        @Override
        public Integer call() {
            throw CliFailure.usage("name what to do: grants list, grants revoke ID, grants switch AGENT --off|--on");
        }

        @Command(name = "list", description = "The grants that have neither expired nor been revoked, newest first,"
                + " and the agents whose grants are off.")
        static final class List extends Subcommand {
            @Override
            public Integer call() {
                Grants grants = grants(this);
                ObjectNode view = Views.object();
                ArrayNode live = view.putArray("grants");
                grants.list(actor()).forEach(grant -> live.add(view(grant)));
                Views.strings(view, "switchedOff", grants.switchedOff(actor()));
                return print(view);
            }
        }

        @Command(name = "revoke", description = "Revoke a grant: the agent's calls pause again. The person who made"
                + " it, or an admin.")
        static final class Revoke extends Subcommand {
            @Parameters(paramLabel = "ID", description = "The grant's id (see: countersign grants list).")
            String id;

            @Override
            public Integer call() {
                return print(view(grants(this).revoke(actor(), id)).put("result", "revoked"));
            }
        }

        @Command(name = "switch", description = "Switch an agent's grants off (its calls pause whatever grants"
                + " exist) or back on. Admins only.")
        static final class Switch extends Subcommand {
            @Parameters(paramLabel = "AGENT", description = "The agent.")
            String agent;

            @Option(names = "--off", description = "Switch its grants off.")
            boolean off;

            @Option(names = "--on", description = "Switch its grants back on.")
            boolean on;

            @Override
            public Integer call() {
                if (off == on) {
                    throw CliFailure.usage("say --off or --on");
                }
                boolean changed = grants(this).switchGrants(actor(), agent, on);
                return print(Views.object().put("agent", agent).put("grants", on ? "on" : "off")
                        .put("changed", changed));
            }
        }
    }

    private static Grants grants(Subcommand command) {
        return command.runtime().grants().orElseThrow(() -> new CliFailure(Cli.UNAVAILABLE,
                "this store keeps no standing grants"));
    }

    private static ObjectNode view(Grant grant) {
        ObjectNode view = Views.object().put("id", grant.id()).put("agent", grant.agent()).put("tool", grant.tool())
                .put("scope", grant.scope().kind()).put("within", grant.scope().value())
                .put("lasts", grant.span().code()).put("run", grant.runId()).put("grantedBy", grant.grantedBy())
                .put("grantedAt", Views.time(grant.grantedAt()))
                .put("expiresAt", grant.expiresAt() == null ? null : Views.time(grant.expiresAt()))
                .put("uses", grant.uses());
        return view;
    }
}
