package io.countersign.engine;

import java.util.regex.Pattern;

/** The one shape shared by tool names, rule identifiers and reason codes. */
public final class Names {
    private static final Pattern CODE = Pattern.compile("[a-z][a-z0-9_.-]*");
    public static final int MAX_CODE_LENGTH = 64;

    private Names() {
    }

    /** True for {@code [a-z][a-z0-9_.-]*}, 1 to 64 ASCII characters. */
    public static boolean isCode(String value) {
        return value != null && value.length() <= MAX_CODE_LENGTH && CODE.matcher(value).matches();
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
