package io.countersign.engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The version this build was made from, as Maven wrote it into the class path. */
public final class ProjectVersion {
    /** What a build without the version resource (classes compiled outside Maven) calls itself. */
    public static final String DEVELOPMENT = "(development build)";
    private static final String RESOURCE = "/io/countersign/app/version.properties";

    private ProjectVersion() {
    }

    /** The project's version, such as {@code 0.1.0}; {@link #DEVELOPMENT} when the build wrote none. */
    public static String current() {
        Properties properties = new Properties();
        try (InputStream in = ProjectVersion.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the version resource " + RESOURCE + " cannot be read", e);
        }
        return properties.getProperty("version", DEVELOPMENT);
    }
}
