package io.countersign.console;

/**
 * Where the console's window stood and how its panes were divided when it last closed: restored at the next
 * start, like the theme.
 *
 * @param listWidth          the width of the inbox's list beside the card, in pixels
 * @param denialsDetailWidth the width of the denial browser's detail pane, in pixels
 */
public record WindowPlacement(double x, double y, double width, double height, double listWidth,
                              double denialsDetailWidth) {
    /** The smallest window the console is laid out for. */
    public static final double MIN_WIDTH = 1024;
    public static final double MIN_HEIGHT = 700;

    public WindowPlacement {
        if (!Double.isFinite(x) || !Double.isFinite(y)) {
            throw new IllegalArgumentException("a window's position must be a number, got " + x + ", " + y);
        }
        if (!(width >= MIN_WIDTH && height >= MIN_HEIGHT && Double.isFinite(width) && Double.isFinite(height))) {
            throw new IllegalArgumentException("a window must be at least " + (int) MIN_WIDTH + "×" + (int) MIN_HEIGHT
                    + ", got " + width + "×" + height);
        }
        if (!(listWidth > 0 && listWidth < width && denialsDetailWidth > 0 && denialsDetailWidth < width)) {
            throw new IllegalArgumentException("a pane must be narrower than its window of " + width + ", got the list "
                    + listWidth + " and the denials' detail " + denialsDetailWidth);
        }
    }
}
