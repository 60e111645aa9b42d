package io.countersign.console.common;

import javafx.beans.property.DoubleProperty;
import javafx.beans.property.SimpleDoubleProperty;

/**
 * The widths the person gave the panes beside a divider, in pixels: the inbox's list and the denial browser's
 * detail. Kept while the window is too narrow for them, and given back when it widens; remembered with the
 * window's place.
 */
public final class PaneWidths {
    /** About a third of the window as it first opens. */
    public static final double DEFAULT_LIST = 360;
    public static final double DEFAULT_DENIALS_DETAIL = 280;

    private final DoubleProperty list = new SimpleDoubleProperty(DEFAULT_LIST);
    private final DoubleProperty denialsDetail = new SimpleDoubleProperty(DEFAULT_DENIALS_DETAIL);

    public DoubleProperty listProperty() {
        return list;
    }

    public DoubleProperty denialsDetailProperty() {
        return denialsDetail;
    }
}
