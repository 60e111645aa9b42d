package io.countersign.runtime;

import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.port.ChatModel;
import io.countersign.engine.port.ScriptedChatModel;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The "scripted" provider: a replay of a JSON script, not a model. A scripted model configuration names its
 * script in {@code endpoint}: {@code classpath:/demo/scripts/x.json} for a script shipped with Countersign, or
 * a file path.
 */
final class ScriptedModels {
    static final String PROVIDER = "scripted";

    private ScriptedModels() {
    }

    static ChatModel load(ModelConfiguration configuration) {
        String where = configuration.endpoint();
        if (where == null || where.isBlank()) {
            throw new IllegalArgumentException("scripted model \"" + configuration.name()
                    + "\" needs its script's location in \"endpoint\" (classpath:/... or a file path)");
        }
        return ScriptedChatModel.fromJson(read(where, configuration.name()));
    }

    private static String read(String where, String modelName) {
        try {
            if (where.startsWith("classpath:")) {
                String resource = where.substring("classpath:".length());
                try (InputStream in = ScriptedModels.class.getResourceAsStream(resource)) {
                    if (in == null) {
                        throw new IllegalArgumentException("scripted model \"" + modelName + "\": no script at "
                                + where);
                    }
                    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
            return Files.readString(Path.of(where));
        } catch (IOException e) {
            throw new UncheckedIOException("scripted model \"" + modelName + "\": cannot read " + where, e);
        }
    }
}
