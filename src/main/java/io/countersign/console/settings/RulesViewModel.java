package io.countersign.console.settings;

import io.countersign.console.common.FailureText;
import io.countersign.console.common.Messages;
import io.countersign.console.common.PaneFeedback;
import io.countersign.console.common.PaneState;
import io.countersign.console.common.Tasks;
import io.countersign.engine.Actor;
import io.countersign.engine.declarative.DeclarativeRule;
import io.countersign.engine.declarative.RecordedCall;
import io.countersign.service.DefaultRuleService;
import io.countersign.service.RuleResult;
import io.countersign.service.RuleService;
import io.countersign.service.RuleService.RuleSummary;
import io.countersign.service.WhatIf;
import java.time.Clock;
import java.time.Duration;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
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
 * condition is checked as it is typed, tried over the calls recorded in a chosen window (what-if, with the calls it
 * would have acted on, each opened to its arguments and run), and saved with a note. The service decides what may
 * be saved; its refusal is shown as it says it.
 */
public final class RulesViewModel {
    /** The windows a what-if looks back over. */
    public static final List<Duration> WINDOWS = List.of(Duration.ofDays(1), DefaultRuleService.WEEK,
            Duration.ofDays(30));
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");
    private static final int SHOWN_ARGUMENTS = 4_000;

    private final RuleService service;
    private final Actor actor;
    private final Messages messages;
    private final Clock clock;
    private final Executor executor;
    private final PaneState pane;
    private final Consumer<String> showRun;

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
    private final ObjectProperty<Duration> window = new SimpleObjectProperty<>(DefaultRuleService.WEEK);
    private final ObservableList<RecordedCall> whatIfCalls = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper whatIfListed = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<RecordedCall> openedCall = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper openedTitle = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper openedArguments = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper saveWaiting = new ReadOnlyBooleanWrapper();
    /** The latest check asked; an older one's answer, arriving late, is dropped. */
    private long checks;
    /** The condition the latest check asked about, while it runs; null when none runs. */
    private String checking;
    /** The condition the shown check speaks for. */
    private String checked = "";

    /**
     * @param showRun opens a run's timeline, for a call the what-if lists
     */
    public RulesViewModel(RuleService service, Actor actor, Executor executor, Messages messages, Clock clock,
                          Consumer<String> showRun) {
        this.service = Objects.requireNonNull(service, "service");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.showRun = Objects.requireNonNull(showRun, "showRun");
        this.pane = new PaneState(executor, messages);
        // what the what-if said is about the rule and the window as they were
        List.of(identifier, condition, reason, explanation, explanationGerman, agents, profiles)
                .forEach(field -> field.addListener((o, was, now) -> clearWhatIf()));
        deny.addListener((o, was, now) -> clearWhatIf());
        window.addListener((o, was, now) -> clearWhatIf());
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
        checks++;
        checking = null;
        checked = "";
        conditionProblem.set("");
        conditionFine.set("");
        pane.problem("");
    }

    /**
     * Type-checks the condition as typed, in the background; the controller asks once typing pauses. A check of
     * the same text already under way is not asked again.
     */
    public void checkCondition() {
        String typed = condition.get() == null ? "" : condition.get();
        if (typed.equals(checking)) {
            return;
        }
        long asked = ++checks;
        if (typed.isBlank()) {
            answered(typed, "");
            return;
        }
        checking = typed;
        Tasks.create(() -> service.checkCondition(actor, typed)).onSuccess(problem -> {
            if (asked == checks) {
                answered(typed, problem.orElse(""));
            }
        }).onError(failure -> {
            if (asked == checks) {
                answered(typed, FailureText.of(failure));
            }
        }).runOnce(executor);
    }

    private void answered(String typed, String problem) {
        checking = null;
        checked = typed;
        conditionProblem.set(problem);
        conditionFine.set(problem.isEmpty() && !typed.isBlank() ? messages.get("rules.check.fine") : "");
        if (saveWaiting.get()) {
            saveWaiting.set(false);
            noteIfChecked();
        }
    }

    /** Evaluates the rule as written over the calls recorded in the chosen window. */
    public void tryOut() {
        DeclarativeRule rule = ruleOrProblem();
        if (rule == null || pane.isBusy()) {
            return;
        }
        clearWhatIf();
        Duration over = window.get();
        pane.change(() -> service.whatIf(actor, rule, clock.instant().minus(over)),
                result -> showWhatIf(result, over), failure -> {
                    if (failure instanceof IllegalArgumentException) {
                        pane.problem(FailureText.of(failure));
                    } else {
                        pane.fail(failure, "rules.whatIfFailed");
                    }
                });
    }

    private void showWhatIf(WhatIf result, Duration over) {
        whatIf.set(messages.get("rules.whatIf.summary", result.matched(), result.recorded(), result.inScope(),
                over.toDays()) + (result.failed() == 0 ? "" : " " + messages.get("rules.whatIf.failed",
                result.failed())));
        whatIfAgents.set(result.actedOn() == 0 ? "" : messages.get("rules.whatIf.byAgent", counts(result.byAgent())));
        whatIfTools.set(result.actedOn() == 0 ? "" : messages.get("rules.whatIf.byTool", counts(result.byTool())));
        whatIfCalls.setAll(result.calls());
        whatIfListed.set(result.calls().size() < result.actedOn()
                ? messages.get("rules.whatIf.listed", result.calls().size(), result.actedOn()) : "");
    }

    /** Opens a call the what-if listed: its run, agent, tool and time, and its arguments; null closes it. */
    public void open(RecordedCall call) {
        openedCall.set(call);
        openedTitle.set(call == null ? "" : messages.get("rules.whatIf.opened", messages.shortRunId(call.runId()),
                call.agent(), call.tool(), time(call)));
        openedArguments.set(call == null ? "" : shortened(call.arguments().toPrettyString()));
    }

    /** Arguments as long as a label shows at once: a megabyte's write is cut, saying how much is left out. */
    private String shortened(String arguments) {
        return arguments.length() <= SHOWN_ARGUMENTS ? arguments : arguments.substring(0, SHOWN_ARGUMENTS)
                + messages.get("rules.whatIf.argumentsCut", arguments.length() - SHOWN_ARGUMENTS);
    }

    /** When a listed call was recorded (its run's last update), as the list shows it. */
    public String time(RecordedCall call) {
        return TIME.format(call.at().atZone(clock.getZone()));
    }

    /** Shows the opened call's run, its timeline. */
    public void openRun() {
        RecordedCall call = openedCall.get();
        if (call != null) {
            showRun.accept(call.runId());
        }
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
        whatIfCalls.clear();
        whatIfListed.set("");
        open(null);
    }

    /**
     * Save was pressed: the rule as written must be one whose condition type-checks, and then its note is asked
     * for. While the condition's check runs (or has not started, typing having just paused), the note is asked
     * for once it answers.
     */
    public void askNote() {
        if (ruleOrProblem() == null) {
            return;
        }
        pane.problem("");
        if (condition.get().equals(checked) && checking == null) {
            noteIfChecked();
        } else {
            saveWaiting.set(true);
            checkCondition();
        }
    }

    private void noteIfChecked() {
        if (conditionProblem.get().isEmpty()) {
            noteAsked.set(true);
        } else {
            pane.problem(messages.get("rules.check.notSaved"));
        }
    }

    /** Gives up saving; the editor keeps what was typed. */
    public void closeNote() {
        saveWaiting.set(false);
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

    /** Whether Save waits for the condition's check before it asks for the note. */
    public ReadOnlyBooleanProperty saveWaitingProperty() {
        return saveWaiting.getReadOnlyProperty();
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

    /** How many of the window's recorded calls the condition matches; empty before a what-if. */
    public ReadOnlyStringProperty whatIfProperty() {
        return whatIf.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty whatIfAgentsProperty() {
        return whatIfAgents.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty whatIfToolsProperty() {
        return whatIfTools.getReadOnlyProperty();
    }

    /** How far back a what-if looks: one of {@link #WINDOWS}. */
    public ObjectProperty<Duration> windowProperty() {
        return window;
    }

    /** The calls the what-if found the rule would have refused or stopped (or failed on), the first of them. */
    public ObservableList<RecordedCall> whatIfCalls() {
        return whatIfCalls;
    }

    /** Said when the list holds only the first of the calls acted on; empty otherwise. */
    public ReadOnlyStringProperty whatIfListedProperty() {
        return whatIfListed.getReadOnlyProperty();
    }

    /** The listed call opened, or null. */
    public ReadOnlyObjectProperty<RecordedCall> openedCallProperty() {
        return openedCall.getReadOnlyProperty();
    }

    /** The opened call's run, agent, tool and time; empty when none is open. */
    public ReadOnlyStringProperty openedTitleProperty() {
        return openedTitle.getReadOnlyProperty();
    }

    /** The opened call's arguments as JSON; empty when none is open. */
    public ReadOnlyStringProperty openedArgumentsProperty() {
        return openedArguments.getReadOnlyProperty();
    }

    /** The problem, the status and whether a change is under way. */
    public PaneFeedback feedback() {
        return pane;
    }
}
