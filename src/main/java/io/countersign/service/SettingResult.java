package io.countersign.service;

import io.countersign.engine.access.SettingChange;
import java.util.List;

/** What became of a request to change settings. */
public sealed interface SettingResult {

    /** Every change was saved; {@code changes} is empty when everything already was as asked. */
    record Saved(List<SettingChange> changes) implements SettingResult {
        public Saved {
            changes = List.copyOf(changes);
        }
    }

    /** Nothing was saved, because of these reasons, one per impossible change. */
    record Refused(List<String> reasons) implements SettingResult {
        public Refused {
            reasons = List.copyOf(reasons);
        }
    }
}
