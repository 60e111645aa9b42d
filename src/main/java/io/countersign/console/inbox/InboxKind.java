package io.countersign.console.inbox;

import io.countersign.engine.state.RunStatus;

/** What a waiting run waits for, as the inbox filters it. */
public enum InboxKind {
    ANY,
    APPROVAL,
    INPUT;

    /** Whether a run with this status passes the filter. */
    public boolean matches(RunStatus status) {
        return switch (this) {
            case ANY -> true;
            case APPROVAL -> status == RunStatus.WAITING_FOR_APPROVAL;
            case INPUT -> status == RunStatus.WAITING_FOR_INPUT;
        };
    }
}
