package io.countersign.engine.decision;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A person's decision on a paused run: who, when, the digest of the card as they saw it, a summary ("approved 2,
 * denied 1") that its record and its event say, and what it decides: a verdict per waiting call
 * ({@link Approval}), or the values of the input form ({@link Input}). It holds what is needed to carry it out
 * again after a crash; the values stay with the run and never go into a governance event.
 */
public sealed interface Decision permits Decision.Approval, Decision.Input {
    String runId();

    /** The name of who decided: a person, or the deadline, the gateway or the host that ended the card. */
    String decidedBy();

    Instant decidedAt();

    /** The digest of the card that was decided: the decision holds only while the card is still this one. */
    String digest();

    /** What was decided, in a few words; it never holds an argument or a value. */
    String summary();

    /** The same decision, said with another summary (a deadline's, or one that names every approver). */
    Decision withSummary(String summary);

    /** The indexes of the calls this decision approves: none for input. */
    Set<Integer> approvedCalls();

    /** How many calls this decision approves: none for input. */
    default int approved() {
        return approvedCalls().size();
    }

    /** The calls this decision denies: none for input. */
    int denied();

    /** A verdict for every waiting call, summarized as {@link #summary(List)} says. */
    static Approval approval(String runId, String decidedBy, Instant decidedAt, String digest,
                             List<CallVerdict> verdicts) {
        return new Approval(runId, decidedBy, decidedAt, digest, summary(verdicts), verdicts);
    }

    /** A person's values for the input form. */
    static Input input(String runId, String decidedBy, Instant decidedAt, String digest, ObjectNode values) {
        return new Input(runId, decidedBy, decidedAt, digest, Input.SUBMITTED, values);
    }

    /**
     * An approval's summary: how many calls were approved (how many of those with edited arguments) and how many
     * denied. It never holds an argument.
     */
    static String summary(List<CallVerdict> verdicts) {
        long approved = verdicts.stream().filter(CallVerdict::approved).count();
        long edited = verdicts.stream().filter(CallVerdict::edited).count();
        return "approved " + approved + (edited == 0 ? "" : " (" + edited + " edited)") + ", denied "
                + (verdicts.size() - approved);
    }

    /** A verdict per call that waits for approval; a denied call is refused with who declined it and why. */
    record Approval(String runId, String decidedBy, Instant decidedAt, String digest, String summary,
                    List<CallVerdict> verdicts) implements Decision {
        public Approval {
            requireCommon(runId, decidedBy, decidedAt, digest, summary);
            verdicts = List.copyOf(verdicts);
        }

        /** The verdict on the call of this index, if the decision has one. */
        public Optional<CallVerdict> verdictOn(int index) {
            return verdicts.stream().filter(verdict -> verdict.index() == index).findFirst();
        }

        @Override
        public Approval withSummary(String summary) {
            return new Approval(runId, decidedBy, decidedAt, digest, summary, verdicts);
        }

        @Override
        public Set<Integer> approvedCalls() {
            return verdicts.stream().filter(CallVerdict::approved).map(CallVerdict::index)
                    .collect(Collectors.toUnmodifiableSet());
        }

        @Override
        public int denied() {
            return verdicts.size() - approved();
        }

        /** Without the verdicts: a person's edited arguments never go into a log. */
        @Override
        public String toString() {
            return "Decision.Approval[" + runId + " by " + decidedBy + " at " + decidedAt + ": " + summary + "]";
        }
    }

    /** A person's values for the input form; they replace the model's values for the declared fields only. */
    record Input(String runId, String decidedBy, Instant decidedAt, String digest, String summary, ObjectNode values)
            implements Decision {
        static final String SUBMITTED = "input submitted";

        public Input {
            requireCommon(runId, decidedBy, decidedAt, digest, summary);
            values = Objects.requireNonNull(values, "values").deepCopy();
        }

        @Override
        public ObjectNode values() {
            return values.deepCopy();
        }

        @Override
        public Input withSummary(String summary) {
            return new Input(runId, decidedBy, decidedAt, digest, summary, values);
        }

        @Override
        public Set<Integer> approvedCalls() {
            return Set.of();
        }

        @Override
        public int denied() {
            return 0;
        }

        /** Without the values, which never go into a log. */
        @Override
        public String toString() {
            return "Decision.Input[" + runId + " by " + decidedBy + " at " + decidedAt + ": " + values.size()
                    + " fields]";
        }
    }

    /**
     * One call's verdict; {@code reason} is the person's reason for a denial ({@code null} when approved);
     * {@code arguments} are the arguments a person put in place of the model's before approving, which are then the
     * call's final arguments ({@code null} when the call runs as the model asked).
     */
    record CallVerdict(int index, boolean approved, String reason, ObjectNode arguments) {
        public CallVerdict {
            if (arguments != null && !approved) {
                throw new IllegalArgumentException("call " + index + ": only an approved call carries edited"
                        + " arguments");
            }
            arguments = arguments == null ? null : arguments.deepCopy();
        }

        public CallVerdict(int index, boolean approved, String reason) {
            this(index, approved, reason, null);
        }

        @Override
        public ObjectNode arguments() {
            return arguments == null ? null : arguments.deepCopy();
        }

        /** Whether a person changed this call's arguments before approving it. */
        public boolean edited() {
            return arguments != null;
        }

        /** Approves the call with a person's arguments in place of the model's. */
        public static CallVerdict approveEdited(int index, ObjectNode arguments) {
            return new CallVerdict(index, true, null, Objects.requireNonNull(arguments, "arguments"));
        }

        public static CallVerdict approve(int index) {
            return new CallVerdict(index, true, null);
        }

        public static CallVerdict deny(int index, String reason) {
            return new CallVerdict(index, false, reason);
        }
    }

    private static void requireCommon(String runId, String decidedBy, Instant decidedAt, String digest,
                                      String summary) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(decidedBy, "decidedBy");
        Objects.requireNonNull(decidedAt, "decidedAt");
        Objects.requireNonNull(digest, "digest");
        Objects.requireNonNull(summary, "summary");
    }
}
