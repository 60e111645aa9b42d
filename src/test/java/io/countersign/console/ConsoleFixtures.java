package io.countersign.console;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.countersign.engine.call.ToolInvocationTarget;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.InputField;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.service.RunCard;
import io.countersign.service.RunService;
import io.countersign.engine.port.WaitingRun;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Cards and inbox lines for the view-model tests, which need no service and no screen. */
public final class ConsoleFixtures {
    public static final Instant NOW = Instant.parse("2026-03-02T10:46:00Z");

    private ConsoleFixtures() {
    }

    /** A service the view-model tests must never reach: any call fails the test. */
    public static RunService noService() {
        return (RunService) Proxy.newProxyInstance(RunService.class.getClassLoader(),
                new Class<?>[] {RunService.class}, (proxy, method, arguments) -> {
                    throw new AssertionError("a view-model test called the service: " + method.getName());
                });
    }

    /** A line of the inbox. */
    public static WaitingRun waiting(String runId, String agent, String initiator, String tool, long minutesAgo,
                                     RunStatus status) {
        return new WaitingRun(runId, status, agent, initiator, "prompt of " + runId,
                NOW.minusSeconds(minutesAgo * 60), List.of(tool), 0, "digest-" + runId, null, null,
                tool.startsWith("fs_"), tool.startsWith("web_"));
    }

    /** A waiting file write. */
    public static RunCard.PendingCallView write(int index, String path) {
        return new RunCard.PendingCallView(index, "fs_write", "{\n  \"path\" : \"" + path + "\"\n}",
                new ToolInvocationTarget("file", path), List.of("-old", "+new"), ToolEffect.WRITE, false,
                DataClass.SOURCE_CODE, false, null, "");
    }

    /** An approval card waiting 4 minutes with the given calls, started by maria. */
    public static RunCard approvalCard(String runId, List<RunCard.PendingCallView> pending,
                                       List<RunCard.RefusedCallView> refused) {
        return new RunCard(runId, RunStatus.WAITING_FOR_APPROVAL, "release-notes-bot", "maria",
                NOW.minusSeconds(4 * 60), "Tidy the release notes", "I will rewrite NOTES.md.", "digest-" + runId,
                pending, refused, null, false, false);
    }

    /** The same card, as seen by the person who started it on a four-eyes agent. */
    public static RunCard ownFourEyesCard(String runId) {
        return new RunCard(runId, RunStatus.WAITING_FOR_APPROVAL, "release-notes-bot", "maria",
                NOW.minusSeconds(60), "Tidy the release notes", "", "digest-" + runId,
                List.of(write(0, "NOTES.md")), List.of(), null, true, true);
    }

    /**
     * An input card for a supplier: a required company, a required head count of at least one (by its schema),
     * an optional country.
     */
    public static RunCard inputCard(String runId, Map<String, String> guesses) {
        return new RunCard(runId, RunStatus.WAITING_FOR_INPUT, "intake-form", "jonas", NOW.minusSeconds(120),
                "Register the supplier", "I need a few details.", "digest-" + runId, List.of(), List.of(),
                new RunCard.InputRequest(0, "ask_details", List.of(
                        InputField.text("company", "Company", "The registered name", true),
                        new InputField("employees", InputField.InputType.INTEGER, "Employees", "", true, List.of(),
                                JsonNodeFactory.instance.objectNode().put("type", "integer").put("minimum", 1)),
                        new InputField("budget", InputField.InputType.NUMBER, "Budget", "", false, List.of()),
                        new InputField("urgent", InputField.InputType.BOOLEAN, "Urgent", "", false, List.of()),
                        InputField.choice("country", "Country", "", false, List.of("Germany", "France"))),
                        guesses), false, false);
    }
}
