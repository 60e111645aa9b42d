package io.countersign.service;

import java.util.List;

/**
 * What a settings change would do, computed before saving it.
 *
 * @param refusals             why some requested changes are impossible; those are left out of the rest
 * @param joinUnattended       tools that would run with no person involved, and do not now
 * @param leaveUnattended      tools that run with no person involved now, and would not
 * @param becomeApprovalBound  tools that would wait for approval, and do not now
 * @param stopApprovalBound    tools that wait for approval now, and would not
 * @param calls                the recent recorded calls, judged under the settings now and after the change
 * @param deniedJoining        of {@code joinUnattended}, the tools with a call among the recent recorded calls
 *                             that was denied (by an operator or a rule): they would now run with nobody asked
 */
public record SettingPreview(List<String> refusals, List<String> joinUnattended, List<String> leaveUnattended,
                             List<String> becomeApprovalBound, List<String> stopApprovalBound, CallImpact calls,
                             List<String> deniedJoining) {
    public SettingPreview {
        deniedJoining = List.copyOf(deniedJoining);
        refusals = List.copyOf(refusals);
        joinUnattended = List.copyOf(joinUnattended);
        leaveUnattended = List.copyOf(leaveUnattended);
        becomeApprovalBound = List.copyOf(becomeApprovalBound);
        stopApprovalBound = List.copyOf(stopApprovalBound);
    }

    /** How {@code sampled} recorded calls fare under the settings now ({@code before}) and after the change. */
    public record CallImpact(int sampled, CallCounts before, CallCounts after) {
    }

    /**
     * @param paused  the call would wait for a person (approval or typed input)
     * @param ran     the call would run with no person involved
     * @param refused the tool would be disabled, so the call would be refused
     */
    public record CallCounts(int paused, int ran, int refused) {
    }
}
