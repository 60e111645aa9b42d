package io.countersign.console.settings;

import io.countersign.console.common.FailureText;
import io.countersign.console.common.Messages;
import io.countersign.console.common.PaneFeedback;
import io.countersign.console.common.PaneState;
import io.countersign.console.common.Tasks;
import io.countersign.engine.Actor;
import io.countersign.engine.declarative.DeclarativeRule;
import io.countersign.service.DefaultRuleService;
import io.countersign.service.RuleResult;
import io.countersign.service.RuleService;
import io.countersign.service.RuleService.RuleSummary;
import io.countersign.service.WhatIf;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.Executor;
import java.util.stream.Collectors;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The rules screen: the saved declarative rules with their hits in the last seven days, and an editor whose
 * condition is checked as it is typed, tried over the last week's recorded calls (what-if), and saved with a note.
 * The service decides what may be saved; its refusal is shown as it says it.
 */
public final class RulesViewModel {
    private final RuleService service;
    private final Actor actor;
    private final Messages messages;
    private final Clock clock;
    private final Executor executor;
    private final PaneState pane;

    private final ObservableList<RuleSummary> rules = FXCollections.observableArrayList();
    private final StringProperty identifier = new SimpleStringProperty("");
    private final StringProperty condition = new SimpleStringProperty("");
    private final BooleanProperty deny = new SimpleBooleanProperty(true);
    private final StringProperty reason = new SimpleStringProperty("");
    private final StringProperty explanation = new SimpleStringProperty("");
    private final StringProperty explanationGerman = new SimpleStringProperty("");
    private final ObjectProperty<Integer> approvals = new SimpleObjectProperty<>(1);
    private final StringProperty agents = new SimpleStringProperty("");
    private final StringProperty profiles = new SimpleStringProperty("");
    private final BooleanProperty enabled = new SimpleBooleanProperty(true);
    private final StringProperty note = new SimpleStringProperty("");
    private final ReadOnlyBooleanWrapper noteAsked = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper refusesEverything = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper conditionProblem = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper conditionFine = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper whatIf = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper whatIfAgents = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper whatIfTools = new ReadOnlyStringWrapper("");
    /** The latest check asked; an older one's answer, arriving late, is dropped. */
    private long checks;

    public RulesViewModel(RuleService service, Actor actor, Executor executor, Messages messages, Clock clock) {
        this.service = Objects.requireNonNull(service, "service");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.pane = new PaneState(executor, messages);
        // what the what-if said is about the rule as it was
        List.of(identifier, condition, reason, explanation, explanationGerman, agents, profiles)
                .forEach(field -> field.addListener((o, was, now) -> clearWhatIf()));
        deny.addListener((o, was, now) -> clearWhatIf());
    }

    /** Reads the saved rules and their hits. */
    public void load() {
        pane.read(() -> service.list(actor), rules::setAll, "rules.loadFailed");
    }

    /** Fills the editor with a saved rule, to change it. */
    public void edit(DeclarativeRule rule) {
        identifier.set(rule.identifier());
        condition.set(rule.condition());
        if (rule.action() instanceof DeclarativeRule.Action.Deny denied) {
            deny.set(true);
            reason.set(denied.reasonCode());
            explanation.set(denied.explanation());
            explanationGerman.set(denied.explanationGerman() == null ? "" : denied.explanationGerman());
            approvals.set(1);
        } else {
            deny.set(false);
            reason.set("");
            explanation.set("");
            explanationGerman.set("");
            approvals.set(((DeclarativeRule.Action.Ask) rule.action()).approvals());
        }
        // the scope's sets have no order of their own
        agents.set(String.join(", ", new TreeSet<>(rule.scope().agents())));
        profiles.set(String.join(", ", new TreeSet<>(rule.scope().profiles())));
        enabled.set(rule.enabled());
        closeNote();
        checkCondition();
    }

    /** Empties the editor for a new rule. */
    public void startNew() {
        List.of(identifier, condition, reason, explanation, explanationGerman, agents, profiles)
                .forEach(field -> field.set(""));
        deny.set(true);
        approvals.set(1);
        enabled.set(true);
        closeNote();
        conditionProblem.set("");
        conditionFine.set("");
        pane.problem("");
    }

    /** Type-checks the condition as typed, in the background; the controller asks once typing pauses. */
    public void checkCondition() {
        String typed = condition.get();
        long asked = ++checks;
        if (typed == null || typed.isBlank()) {
            conditionProblem.set("");
            conditionFine.set("");
            return;
        }
        Tasks.create(() -> service.checkCondition(actor, typed)).onSuccess(problem -> {
            if (asked == checks) {
                conditionProblem.set(problem.orElse(""));
                conditionFine.set(problem.isEmpty() ? messages.get("rules.check.fine") : "");
            }
        }).onError(failure -> {
            if (asked == checks) {
                conditionProblem.set(FailureText.of(failure));
                conditionFine.set("");
            }
        }).runOnce(executor);
    }

    /** Evaluates the rule as written over the calls recorded in the last seven days. */
    public void tryOut() {
        DeclarativeRule rule = ruleOrProblem();
        if (rule == null || pane.isBusy()) {
            return;
        }
        clearWhatIf();
        pane.change(() -> service.whatIf(actor, rule, clock.instant().minus(DefaultRuleService.WEEK)),
                this::showWhatIf, failure -> {
                    if (failure instanceof IllegalArgumentException) {
                        pane.problem(FailureText.of(failure));
                    } else {
                        pane.fail(failure, "rules.whatIfFailed");
                    }
                });
    }

    private void showWhatIf(WhatIf result) {
        whatIf.set(messages.get("rules.whatIf.summary", result.matched(), result.recorded(), result.inScope())
                + (result.failed() == 0 ? "" : " " + messages.get("rules.whatIf.failed", result.failed())));
        whatIfAgents.set(result.actedOn() == 0 ? "" : messages.get("rules.whatIf.byAgent", counts(result.byAgent())));
        whatIfTools.set(result.actedOn() == 0 ? "" : messages.get("rules.whatIf.byTool", counts(result.byTool())));
    }

    private static String counts(Map<String, Integer> counted) {
        return counted.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(entry -> entry.getKey() + " " + entry.getValue()).collect(Collectors.joining(", "));
    }

    private void clearWhatIf() {
        refusesEverything.set(false);
        whatIf.set("");
        whatIfAgents.set("");
        whatIfTools.set("");
    }

    /** Save was pressed: the rule as written must be one, and then its note is asked for. */
    public void askNote() {
        if (ruleOrProblem() != null) {
            pane.problem("");
            noteAsked.set(true);
        }
    }

    /** Gives up saving; the editor keeps what was typed. */
    public void closeNote() {
        refusesEverything.set(false);
        noteAsked.set(false);
        note.set("");
    }

    /** Saves the rule with the note, as an audited setting change. */
    public void save() {
        save(false);
    }

    /** Saves the deny rule the service warned would refuse every call of the week, as {@code --force} does. */
    public void saveAnyway() {
        save(true);
    }

    private void save(boolean force) {
        DeclarativeRule rule = ruleOrProblem();
        if (rule == null || pane.isBusy()) {
            return;
        }
        if (note.get() == null || note.get().isBlank()) {
            pane.problem(messages.get("rules.noteMissing"));
            return;
        }
        DeclarativeRule noted = rule.withNote(note.get());
        pane.change(() -> service.save(actor, noted, force), result -> saved(noted.identifier(), result),
                pane.failing("rules.saveFailed", noted.identifier()));
    }

    private void saved(String rule, RuleResult result) {
        if (result instanceof RuleResult.Refused refused) {
            pane.problem(refused.reason());
        } else if (result instanceof RuleResult.RefusesEverything everything) {
            pane.problem(messages.get("rules.refusesEverything", everything.calls()));
            refusesEverything.set(true);
        } else {
            pane.status(messages.get(result instanceof RuleResult.Saved ? "rules.saved" : "rules.unchanged", rule));
            closeNote();
            load();
        }
    }

    /** The rule the editor holds, or null with the reason it is not one shown as the problem. */
    private DeclarativeRule ruleOrProblem() {
        try {
            DeclarativeRule.Action action = deny.get()
                    ? new DeclarativeRule.Action.Deny(reason.get().strip(), explanation.get(), explanationGerman.get())
                    : new DeclarativeRule.Action.Ask(approvals.get());
            return new DeclarativeRule(identifier.get().strip(), condition.get(), action,
                    new DeclarativeRule.Scope(DeclarativeRule.names(List.of(agents.get()), "agent name"),
                            DeclarativeRule.names(List.of(profiles.get()), "profile name")),
                    enabled.get(), "");
        } catch (IllegalArgumentException | NullPointerException e) {
            pane.problem(FailureText.of(e));
            return null;
        }
    }

    /** The saved rules, in identifier order, each with its hits in the last seven days. */
    public ObservableList<RuleSummary> rules() {
        return rules;
    }

    public StringProperty identifierProperty() {
        return identifier;
    }

    /** The CEL condition as typed. */
    public StringProperty conditionProperty() {
        return condition;
    }

    /** True for a deny rule, false for one that asks for a person. */
    public BooleanProperty denyProperty() {
        return deny;
    }

    public StringProperty reasonProperty() {
        return reason;
    }

    public StringProperty explanationProperty() {
        return explanation;
    }

    public StringProperty explanationGermanProperty() {
        return explanationGerman;
    }

    /** How many people approve a call an ask rule stops. */
    public ObjectProperty<Integer> approvalsProperty() {
        return approvals;
    }

    /** The agents in scope, comma-separated; empty with no profiles for every call. */
    public StringProperty agentsProperty() {
        return agents;
    }

    public StringProperty profilesProperty() {
        return profiles;
    }

    public BooleanProperty enabledProperty() {
        return enabled;
    }

    /** Why the admin saves the rule as it is. */
    public StringProperty noteProperty() {
        return note;
    }

    /** Whether Save waits for the note. */
    public ReadOnlyBooleanProperty noteAskedProperty() {
        return noteAsked.getReadOnlyProperty();
    }

    /** Whether the service warned that the rule would refuse every call of the week; Save anyway is offered. */
    public ReadOnlyBooleanProperty refusesEverythingProperty() {
        return refusesEverything.getReadOnlyProperty();
    }

    /** Why the condition does not compile (line, column, the fields that exist); empty otherwise. */
    public ReadOnlyStringProperty conditionProblemProperty() {
        return conditionProblem.getReadOnlyProperty();
    }

    /** Said when the condition type-checks; empty otherwise. */
    public ReadOnlyStringProperty conditionFineProperty() {
        return conditionFine.getReadOnlyProperty();
    }

    /** How many of the last week's recorded calls the condition matches; empty before a what-if. */
    public ReadOnlyStringProperty whatIfProperty() {
        return whatIf.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty whatIfAgentsProperty() {
        return whatIfAgents.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty whatIfToolsProperty() {
        return whatIfTools.getReadOnlyProperty();
    }

    /** The problem, the status and whether a change is under way. */
    public PaneFeedback feedback() {
        return pane;
    }
}
