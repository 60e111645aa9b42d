package io.countersign.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.declarative.DeclarativeRule;
import io.countersign.engine.declarative.RecordedCall;
import io.countersign.engine.call.InvocationVerdict;
import io.countersign.service.RuleResult;
import io.countersign.service.RuleService;
import io.countersign.service.RuleTrial;
import io.countersign.service.WhatIf;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code rules}: the declarative invocation rules an admin writes in CEL: add, edit, test, enable, disable, remove,
 * list, export, import, and what-if over the recorded calls.
 */
final class RuleCommands {

    private RuleCommands() {
    }

    @Command(name = "rules", description = "Declarative invocation rules in CEL: deny a call, or ask for a person,"
            + " by its arguments. Admins only.",
            subcommands = {Rules.Add.class, Rules.Edit.class, Rules.Test.class, Rules.Enable.class,
                    Rules.Disable.class, Rules.Remove.class, Rules.ListRules.class, Rules.Export.class,
                    Rules.Import.class, Rules.WhatIfCommand.class})
    static final class Rules extends Subcommand {
        @Override
        public Integer call() {
            throw CliFailure.usage("name what to do: rules add|edit|test|enable|disable|remove|list|export|import"
                    + "|what-if");
        }

        /** The action options: {@code --deny REASON --explain TEXT [--explain-de TEXT]} or {@code --ask}. */
        static final class ActionOptions {
            @Option(names = "--deny", paramLabel = "REASON", description = "Refuse matching calls with this reason"
                    + " code ([a-z][a-z0-9_.-]*).")
            String deny;

            @Option(names = "--explain", paramLabel = "TEXT", description = "With --deny: one sentence for the"
                    + " person behind the run, in English.")
            String explain;

            @Option(names = "--explain-de", paramLabel = "TEXT", description = "With --deny: the same sentence in"
                    + " German.")
            String explainGerman;

            @Option(names = "--ask", description = "Matching calls need a person, even when their tool runs"
                    + " without one.")
            boolean ask;

            @Option(names = "--approvals", paramLabel = "N", description = "With --ask: how many distinct people"
                    + " must approve (default 1).")
            Integer approvals;

            DeclarativeRule.Action action() {
                if ((deny == null) == !ask) {
                    throw CliFailure.usage("say what the rule does: --deny REASON --explain TEXT, or --ask");
                }
                if (ask) {
                    if (explain != null || explainGerman != null) {
                        throw CliFailure.usage("--explain belongs to --deny; an ask rule shows its name on the card");
                    }
                    return new DeclarativeRule.Action.Ask(approvals == null ? 1 : approvals);
                }
                if (approvals != null) {
                    throw CliFailure.usage("--approvals belongs to --ask");
                }
                return new DeclarativeRule.Action.Deny(deny, explain, explainGerman);
            }

            boolean given() {
                return deny != null || ask || explain != null || explainGerman != null || approvals != null;
            }
        }

        /** The options a change shares: the note, and saving a rule that would refuse everything. */
        abstract static class Change extends Subcommand {
            @Option(names = "--note", paramLabel = "TEXT", description = "Why: kept with the audited change.")
            String note;

            @Option(names = "--force", description = "Save a deny rule even if it would have refused every call of"
                    + " the last seven days.")
            boolean force;

            int saved(RuleResult result, String identifier) {
                return print(outcome(result, identifier));
            }
        }

        @Command(name = "add", description = "Add a rule: rules add ID --when CEL (--deny REASON --explain TEXT"
                + " [--explain-de TEXT] | --ask [--approvals N]) [--agents A,B] [--profiles P].")
        static final class Add extends Change {
            @Parameters(paramLabel = "ID", description = "The rule's identifier ([a-z][a-z0-9_.-]*, at most 64).")
            String identifier;

            @Option(names = "--when", paramLabel = "CEL", required = true, description = "The condition, over tool,"
                    + " server, args, target, agent, person, roles, dataClass, trustZone, effect, now, history.")
            String when;

            @ArgGroup(exclusive = false)
            ActionOptions action = new ActionOptions();

            @Option(names = "--agents", paramLabel = "A,B", split = ",", description = "Only these agents' calls.")
            List<String> agents = List.of();

            @Option(names = "--profiles", paramLabel = "P", split = ",", description = "Only these gateway"
                    + " profiles' calls.")
            List<String> profiles = List.of();

            @Override
            public Integer call() {
                RuleService rules = runtime().rules();
                if (rules.find(actor(), identifier).isPresent()) {
                    throw CliFailure.refused("a rule named " + identifier + " exists; change it with: countersign"
                            + " rules edit " + identifier);
                }
                DeclarativeRule rule = new DeclarativeRule(identifier, when, action.action(), scope(agents, profiles),
                        true, note);
                return saved(rules.save(actor(), rule, force), identifier);
            }
        }

        @Command(name = "edit", description = "Change a rule: the options given replace its condition, action or"
                + " scope; the others stay.")
        static final class Edit extends Change {
            @Parameters(paramLabel = "ID", description = "The rule.")
            String identifier;

            @Option(names = "--when", paramLabel = "CEL", description = "The new condition.")
            String when;

            @ArgGroup(exclusive = false)
            ActionOptions action = new ActionOptions();

            @Option(names = "--agents", paramLabel = "A,B", split = ",", description = "Only these agents' calls"
                    + " (an empty value: every agent's).")
            List<String> agents;

            @Option(names = "--profiles", paramLabel = "P", split = ",", description = "Only these gateway"
                    + " profiles' calls (an empty value: none by name).")
            List<String> profiles;

            @Override
            public Integer call() {
                RuleService rules = runtime().rules();
                DeclarativeRule saved = existing(rules, actor(), identifier);
                DeclarativeRule.Scope scope = saved.scope();
                if (agents != null || profiles != null) {
                    scope = scope(agents == null ? List.copyOf(scope.agents()) : agents,
                            profiles == null ? List.copyOf(scope.profiles()) : profiles);
                }
                DeclarativeRule rule = new DeclarativeRule(identifier, when == null ? saved.condition() : when,
                        action.given() ? action.action() : saved.action(), scope, saved.enabled(), note);
                return saved(rules.save(actor(), rule, force), identifier);
            }
        }

        @Command(name = "test", description = "Type-check a condition (of a saved rule, or given with --when) without"
                + " saving anything: its error's line and column, or when it is asked; with --call, what it does to"
                + " that call.")
        static final class Test extends Subcommand {
            @Parameters(paramLabel = "ID", arity = "0..1", description = "A saved rule.")
            String identifier;

            @Option(names = "--when", paramLabel = "CEL", description = "A condition to check.")
            String when;

            @Option(names = "--call", paramLabel = "FILE", description = "A sample call as a JSON object (- reads"
                    + " standard input): tool, args, and if the condition reads them agent, person, target {kind,"
                    + " id}, history [{tool, outcome, target}], now.")
            String call;

            @Override
            public Integer call() {
                RuleService rules = runtime().rules();
                DeclarativeRule rule = ruleOrCondition(rules, actor(), identifier, when);
                rules.check(actor(), rule).ifPresent(problem -> {
                    throw CliFailure.usage(problem);
                });
                ObjectNode view = Views.object().put("id", rule.identifier()).put("when", rule.condition())
                        .put("result", "compiles").put("asked", rules.readsHistory(rule)
                                ? "when the call executes (it reads history)" : "before the card and when the call"
                                + " executes");
                if (call != null) {
                    RecordedCall sample = SampleCall.read(call, System.in, actor().name(), Instant.now());
                    trial(view, rules.trial(actor(), rule, sample), identifier == null);
                }
                return print(view);
            }

            /** The outcome for the sample call: what a bare condition does is only whether it matches. */
            private static void trial(ObjectNode view, RuleTrial trial, boolean condition) {
                if (trial instanceof RuleTrial.OutOfScope) {
                    view.put("outcome", "not in scope");
                } else if (trial instanceof RuleTrial.NoMatch) {
                    view.put("outcome", "no match");
                } else if (trial instanceof RuleTrial.Fails fails) {
                    view.put("outcome", InvocationVerdict.RULE_FAILED).put("error", fails.reason());
                } else if (condition) {
                    view.put("outcome", "matches");
                } else if (((RuleTrial.Matches) trial).action() instanceof DeclarativeRule.Action.Deny deny) {
                    view.put("outcome", "deny").put("reason", deny.reasonCode())
                            .put("explanation", deny.explanation());
                } else {
                    view.put("outcome", "ask").put("approvals",
                            ((DeclarativeRule.Action.Ask) ((RuleTrial.Matches) trial).action()).approvals());
                }
            }
        }

        /** Switches a rule on or off, keeping it; switching one off needs no warning about what it would refuse. */
        abstract static class Switch extends Change {
            @Parameters(paramLabel = "ID", description = "The rule.")
            String identifier;

            abstract boolean on();

            @Override
            public Integer call() {
                RuleService rules = runtime().rules();
                DeclarativeRule saved = existing(rules, actor(), identifier);
                return saved(rules.save(actor(), saved.withEnabled(on()).withNote(note), force || !on()), identifier);
            }
        }

        @Command(name = "enable", description = "Switch a rule on.")
        static final class Enable extends Switch {
            @Override
            boolean on() {
                return true;
            }
        }

        @Command(name = "disable", description = "Switch a rule off: kept, asked about nothing.")
        static final class Disable extends Switch {
            @Override
            boolean on() {
                return false;
            }
        }

        @Command(name = "remove", description = "Remove a rule.")
        static final class Remove extends Change {
            @Parameters(paramLabel = "ID", description = "The rule.")
            String identifier;

            @Override
            public Integer call() {
                return saved(runtime().rules().remove(actor(), identifier, note), identifier);
            }
        }

        @Command(name = "list", description = "The rules, each with the recorded calls of the last seven days it"
                + " matches.")
        static final class ListRules extends Subcommand {
            @Override
            public Integer call() {
                ArrayNode list = Views.object().arrayNode();
                runtime().rules().list(actor()).forEach(summary -> {
                    ObjectNode view = summary.rule().toJson();
                    view.remove("note");
                    view.put("hits7d", summary.hits());
                    list.add(view);
                });
                return print(list);
            }
        }

        @Command(name = "export", description = "Every rule as a JSON array, the rules file an admin keeps in git.")
        static final class Export extends Subcommand {
            @Option(names = "--file", paramLabel = "FILE", description = "Write it here instead of printing it.")
            Path file;

            @Override
            public Integer call() {
                ArrayNode all = Views.object().arrayNode();
                runtime().rules().list(actor()).forEach(summary -> all.add(summary.rule().toJson()));
                if (file == null) {
                    root().output().print(all, new Output.Table(List.of("rules"),
                            List.of(List.of(Output.pretty(all)))));
                    return Cli.DONE;
                }
                try {
                    Files.writeString(file, Output.pretty(all) + "\n", StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new UncheckedIOException("could not write " + file + ": " + e.getMessage(), e);
                }
                return print(Views.object().put("file", file.toString()).put("rules", all.size()));
            }
        }

        @Command(name = "import", description = "Save every rule of a rules file (a JSON array, as export writes"
                + " it); each is checked before any is saved.")
        static final class Import extends Change {
            @Parameters(paramLabel = "FILE", description = "The rules file.")
            Path file;

            @Override
            public Integer call() {
                JsonNode read;
                try {
                    read = Output.JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
                } catch (IOException e) {
                    throw CliFailure.usage("could not read the rules file " + file + ": " + e.getMessage());
                }
                if (read == null || !read.isArray()) {
                    throw CliFailure.usage("the rules file " + file + " must hold a JSON array of rules");
                }
                RuleService rules = runtime().rules();
                List<DeclarativeRule> parsed = new ArrayList<>();
                for (JsonNode item : read) {
                    DeclarativeRule rule = DeclarativeRule.fromJson(item);
                    DeclarativeRule noted = note == null ? rule : rule.withNote(note);
                    rules.check(actor(), noted).ifPresent(problem -> {
                        throw CliFailure.usage("rule " + noted.identifier() + ": " + problem);
                    });
                    parsed.add(noted);
                }
                ArrayNode results = Views.object().arrayNode();
                for (DeclarativeRule rule : parsed) {
                    results.add(outcome(rules.save(actor(), rule, force), rule.identifier()));
                }
                return print(results);
            }
        }

        @Command(name = "what-if", description = "Evaluate a rule (saved, or a condition) over the calls recorded"
                + " in the store's runs: how many it matches, by agent and tool, and the calls.")
        static final class WhatIfCommand extends Subcommand {
            @Parameters(paramLabel = "ID", arity = "0..1", description = "A saved rule.")
            String identifier;

            @Option(names = "--when", paramLabel = "CEL", description = "A condition to try.")
            String when;

            @Option(names = "--since", paramLabel = "AGE", defaultValue = "7d", description = "The window: the runs"
                    + " updated in the last 7d (default), 12h, 30m or an ISO-8601 duration.")
            String since;

            @Override
            public Integer call() {
                RuleService rules = runtime().rules();
                DeclarativeRule rule = ruleOrCondition(rules, actor(), identifier, when);
                rules.check(actor(), rule).ifPresent(problem -> {
                    throw CliFailure.usage(problem);
                });
                WhatIf result = rules.whatIf(actor(), rule,
                        Instant.now().minus(EventCommands.duration(since)));
                ObjectNode view = Views.object().put("matched", result.matched()).put("failed", result.failed())
                        .put("inScope", result.inScope()).put("recorded", result.recorded()).put("since", since);
                ObjectNode agents = view.putObject("byAgent");
                result.byAgent().forEach(agents::put);
                ObjectNode tools = view.putObject("byTool");
                result.byTool().forEach(tools::put);
                ArrayNode calls = view.putArray("calls");
                result.calls().forEach(call -> calls.add(callView(call)));
                List<List<String>> rows = new ArrayList<>();
                result.calls().forEach(call -> rows.add(List.of(call.runId(), call.agent(), call.tool(),
                        Views.time(call.at()), call.arguments().toString())));
                root().output().print(view, new Output.Table(List.of(result.matched() + " of " + result.inScope()
                        + " recorded calls match" + (result.failed() == 0 ? "" : ", " + result.failed() + " fail"),
                        "agent", "tool", "at", "arguments"), rows));
                return Cli.DONE;
            }
        }
    }

    private static DeclarativeRule.Scope scope(List<String> agents, List<String> profiles) {
        return new DeclarativeRule.Scope(DeclarativeRule.names(agents, "agent name"),
                DeclarativeRule.names(profiles, "profile name"));
    }

    private static DeclarativeRule existing(RuleService rules, Actor actor, String identifier) {
        return rules.find(actor, identifier).orElseThrow(() -> CliFailure.refused("no rule is named \"" + identifier
                + "\"; see: countersign rules list"));
    }

    /** A saved rule, or a condition to try as a deny rule of every agent (what a condition matches). */
    private static DeclarativeRule ruleOrCondition(RuleService rules, Actor actor, String identifier, String when) {
        if ((identifier == null) == (when == null)) {
            throw CliFailure.usage("name a saved rule, or give a condition with --when, not both");
        }
        if (identifier != null) {
            return existing(rules, actor, identifier);
        }
        return new DeclarativeRule("condition", when, new DeclarativeRule.Action.Deny("condition",
                "The condition being tried.", null), DeclarativeRule.Scope.ALL, true, null);
    }

    private static ObjectNode outcome(RuleResult result, String identifier) {
        if (result instanceof RuleResult.Refused refused) {
            throw refused.reason().startsWith("the condition") ? CliFailure.usage(refused.reason())
                    : CliFailure.refused(refused.reason());
        }
        if (result instanceof RuleResult.RefusesEverything everything) {
            throw CliFailure.refused("rule " + identifier + " would have refused every one of the "
                    + everything.calls() + " calls recorded in the last seven days; not saved (save it anyway with"
                    + " --force)");
        }
        ObjectNode view = Views.object().put("id", identifier);
        if (result instanceof RuleResult.Saved saved) {
            view.put("result", saved.change().newValue() == null ? "removed" : "saved")
                    .put("change", saved.change().id());
        } else {
            view.put("result", "unchanged");
        }
        return view;
    }

    private static ObjectNode callView(RecordedCall call) {
        ObjectNode view = Views.object().put("run", call.runId()).put("agent", call.agent()).put("tool", call.tool())
                .put("at", Views.time(call.at()));
        view.set("arguments", call.arguments());
        return view;
    }
}
