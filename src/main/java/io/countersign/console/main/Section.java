package io.countersign.console.main;

/** What the middle pane lists: the waiting runs, or the runs started and decided here. */
public enum Section {
    INBOX,
    RUNS
}
