package io.countersign.service;

import io.countersign.engine.tool.RemoteDeclaration;
import io.countersign.engine.call.ToolInvocationTarget;
import io.countersign.engine.port.ApprovalProgress;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.InputField;
import io.countersign.engine.tool.ToolEffect;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Everything a person needs to decide one waiting run, in the order they read it: who and why, what exactly
 * will happen, what was already refused and why. {@code digest} goes back with the decision; a card that
 * changed meanwhile is refused as stale.
 *
 * @param selfStarted  the viewer started this run
 * @param fourEyes     the agent requires someone other than the initiator to approve
 * @param input        the typed input asked for, on an input pause; {@code null} on an approval pause
 * @param approvals    how many people approving all its calls needs, and who approved it already
 * @param stranded     why no decision on the card can be carried out (the gateway holding its MCP host's
 *                     connection stopped), or null; a decision on such a card is refused with it
 */
public record RunCard(String runId, RunStatus status, String agent, String initiator, Instant waitingSince,
                      String prompt, String lastModelMessage, String digest, List<PendingCallView> pending,
                      List<RefusedCallView> refused, InputRequest input, boolean selfStarted, boolean fourEyes,
                      ApprovalProgress approvals, String stranded) {
    public RunCard {
        pending = List.copyOf(pending);
        refused = List.copyOf(refused);
        approvals = approvals == null ? ApprovalProgress.SINGLE : approvals;
    }

    /** A card one approval decides. */
    public RunCard(String runId, RunStatus status, String agent, String initiator, Instant waitingSince,
                   String prompt, String lastModelMessage, String digest, List<PendingCallView> pending,
                   List<RefusedCallView> refused, InputRequest input, boolean selfStarted, boolean fourEyes) {
        this(runId, status, agent, initiator, waitingSince, prompt, lastModelMessage, digest, pending, refused, input,
                selfStarted, fourEyes, ApprovalProgress.SINGLE, null);
    }

    /**
     * A call that waits for a verdict; {@code argumentsJson} is pretty-printed JSON.
     *
     * @param effect       a local tool's effect; {@code null} for a remote tool, whose effect Countersign does not
     *                     know: only its {@code declaration} says anything, and never that it reads
     * @param declaration  for a remote tool, the declaration it waits on and who made it; {@code null} for a local
     * @param serverClaims for a remote tool, what its server says of it ("server says: read-only"), never used to
     *                     decide; empty when it says nothing or is not imported here
     */
    public record PendingCallView(int index, String tool, String argumentsJson, ToolInvocationTarget target,
                                  List<String> preview, ToolEffect effect, boolean remote, DataClass dataClass,
                                  boolean stale, RemoteDeclaration declaration, String serverClaims,
                                  String askedBy) {
        public PendingCallView {
            preview = preview == null ? List.of() : List.copyOf(preview);
            serverClaims = serverClaims == null ? "" : serverClaims;
        }

        /** A call no declarative rule asked about. */
        public PendingCallView(int index, String tool, String argumentsJson, ToolInvocationTarget target,
                               List<String> preview, ToolEffect effect, boolean remote, DataClass dataClass,
                               boolean stale, RemoteDeclaration declaration, String serverClaims) {
            this(index, tool, argumentsJson, target, preview, effect, remote, dataClass, stale, declaration,
                    serverClaims, null);
        }

        /**
         * What the card says of the call's effect: "write" or "read" for a local tool; for a remote tool what its
         * declaration says, such as "remote, declared approval-bound for this tool by maria".
         */
        public String effectText() {
            if (declaration != null) {
                return declaration.effectOnCard();
            }
            return effect == null ? "unknown" : effect.name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * A call a rule refused before the card was shown, with the rule's explanation for the person; {@code target}
     * is {@code null} when the call has none, {@code argumentsJson} is pretty-printed JSON.
     */
    public record RefusedCallView(int index, String tool, String argumentsJson, ToolInvocationTarget target,
                                  String rule, String reason, String explanation) {
    }

    /** The form of an input pause; {@code modelGuesses} are hints only, never prefilled values. */
    public record InputRequest(int index, String tool, List<InputField> fields, Map<String, String> modelGuesses) {
        public InputRequest {
            fields = List.copyOf(fields);
            modelGuesses = Map.copyOf(modelGuesses);
        }
    }
}
