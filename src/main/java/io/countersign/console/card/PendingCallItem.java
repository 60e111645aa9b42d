package io.countersign.console.card;

import io.countersign.service.RunCard.PendingCallView;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;

/**
 * One waiting call on the card with the person's verdict on it.
 *
 * @see ApprovalCardViewModel#toggle(int)
 */
public final class PendingCallItem {
    private final int position;
    private final PendingCallView call;
    private final ObjectProperty<Verdict> verdict = new SimpleObjectProperty<>(Verdict.UNDECIDED);

    private final CallEdit edit;

    PendingCallItem(int position, PendingCallView call, CallEdit edit) {
        this.position = position;
        this.call = call;
        this.edit = edit;
    }

    /** The person's edit of this call's arguments (closed until they press Edit). */
    public CallEdit edit() {
        return edit;
    }

    /** The call's place on the card, from 1: the digit key that toggles it. */
    public int position() {
        return position;
    }

    public PendingCallView call() {
        return call;
    }

    public ObjectProperty<Verdict> verdictProperty() {
        return verdict;
    }

    public Verdict verdict() {
        return verdict.get();
    }
}
