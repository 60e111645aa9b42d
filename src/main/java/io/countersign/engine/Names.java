package io.countersign.engine;

import java.util.regex.Pattern;

/** The one shape shared by tool names, rule identifiers and reason codes. */
public final class Names {
    private static final Pattern CODE = Pattern.compile("[a-z][a-z0-9_.-]*");
    public static final int MAX_CODE_LENGTH = 64;
    private static final String INVALID_NAME_PREFIX = "invalid:len=";
    private static final Pattern INVALID_NAME = Pattern.compile("invalid:len=[0-9]{1,10}");

    private Names() {
    }

    /** True for {@code [a-z][a-z0-9_.-]*}, 1 to 64 ASCII characters. */
    public static boolean isCode(String value) {
        return value != null && value.length() <= MAX_CODE_LENGTH && CODE.matcher(value).matches();
    }

    /**
     * A tool name as events, counts and histories record it: the name when it is one, else a fixed marker with its
     * length ({@code invalid:len=100000}), so that a name a model invented is never kept as it is. A marker is
     * kept as it is.
     */
    public static String recordedToolName(String name) {
        if (name == null || isRecordedToolName(name)) {
            return name;
        }
        return INVALID_NAME_PREFIX + name.length();
    }

    /** True for a tool name, or for the marker {@link #recordedToolName} puts in place of one that is not. */
    public static boolean isRecordedToolName(String value) {
        return isCode(value) || value != null && INVALID_NAME.matcher(value).matches();
    }

    /** Returns the value, or fails with a message that names what was wrong and where. */
    public static String requireCode(String value, String what) {
        if (!isCode(value)) {
            throw new IllegalArgumentException(what + " \"" + value + "\" must match [a-z][a-z0-9_.-]* and be 1 to "
                    + MAX_CODE_LENGTH + " ASCII characters long");
        }
        return value;
    }
}
