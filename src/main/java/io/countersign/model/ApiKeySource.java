package io.countersign.model;

import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.port.ModelException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where a model configuration keeps its API key: an environment variable, a file, or nowhere (local servers
 * such as Ollama need none). The key is read afresh for every request and held nowhere, so it can be rotated
 * without a restart and never shows up in a field, a {@code toString} or a message.
 */
final class ApiKeySource {
    private final String configurationName;
    private final String environmentVariable;
    private final Path file;

    private ApiKeySource(String configurationName, String environmentVariable, Path file) {
        this.configurationName = configurationName;
        this.environmentVariable = environmentVariable;
        this.file = file;
    }

    /** Reads where the configuration keeps its key; blank settings count as not set. */
    static ApiKeySource of(ModelConfiguration configuration) {
        String variable = blankToNull(configuration.apiKeyEnvironment());
        String fileName = blankToNull(configuration.apiKeyFile());
        if (variable != null && fileName != null) {
            throw new IllegalArgumentException("model configuration \"" + configuration.name()
                    + "\" names both an API key environment variable and an API key file; keep one");
        }
        Path path = null;
        if (fileName != null) {
            try {
                path = Path.of(fileName);
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException("model configuration \"" + configuration.name()
                        + "\" names an API key file that is not a valid path: " + fileName, e);
            }
        }
        return new ApiKeySource(configuration.name(), variable, path);
    }

    /**
     * The key, trimmed, or empty when the configuration names no key.
     *
     * @throws ModelException {@code missing_credentials} when the variable is unset or empty or the file cannot be
     *                        read, {@code invalid_credentials} when the key cannot be sent in a header
     */
    Optional<String> read(Function<String, String> environment) throws ModelException {
        if (environmentVariable == null && file == null) {
            return Optional.empty();
        }
        String key = environmentVariable != null ? fromEnvironment(environment) : fromFile();
        if (key.isEmpty()) {
            throw new ModelException("missing_credentials", "the API key in " + describe() + " is empty");
        }
        if (!key.chars().allMatch(c -> c > ' ' && c < 0x7f)) {
            throw new ModelException("invalid_credentials", "the API key in " + describe()
                    + " contains spaces, line breaks or non-ASCII characters, which cannot be sent in a header");
        }
        return Optional.of(key);
    }

    /** Names where the key is kept, never the key. */
    String describe() {
        if (environmentVariable != null) {
            return "environment variable " + environmentVariable + " (model configuration \"" + configurationName
                    + "\")";
        }
        if (file != null) {
            return "key file " + file + " (model configuration \"" + configurationName + "\")";
        }
        return "no API key";
    }

    private String fromEnvironment(Function<String, String> environment) throws ModelException {
        String value = environment.apply(environmentVariable);
        if (value == null) {
            throw new ModelException("missing_credentials", describe() + " is not set");
        }
        return value.trim();
    }

    private String fromFile() throws ModelException {
        try {
            return Files.readString(file, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            // The exception's class says enough (missing, denied, not UTF-8); its message could quote the file.
            throw new ModelException("missing_credentials", describe() + " cannot be read ("
                    + e.getClass().getSimpleName() + ")");
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }

    @Override
    public String toString() {
        return describe();
    }
}
