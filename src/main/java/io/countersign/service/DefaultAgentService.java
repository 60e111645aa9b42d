package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.port.ActorDirectory;
import io.countersign.engine.port.ServerRecords;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.store.ConfigurationStore;
import io.countersign.store.StoredAgentConfiguration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/** Imports and exports configurations over the store's {@link ConfigurationStore}. */
public final class DefaultAgentService implements AgentService {
    private final ConfigurationStore configurations;
    private final ToolRegistry registry;
    private final ServerRecords servers;
    private final Consumer<ModelConfiguration> modelCheck;
    private final Permissions permissions;

    /**
     * @param servers    the server records whose groups and tools an agent may name before they are connected
     * @param modelCheck refuses, with an IllegalArgumentException, a model configuration that no provider of this
     *                   installation can serve (an unknown provider, a missing endpoint, an unreadable script)
     * @param users      the people and the roles they hold now, checked on every call
     */
    public DefaultAgentService(ConfigurationStore configurations, ToolRegistry registry, ServerRecords servers,
                               Consumer<ModelConfiguration> modelCheck, ActorDirectory users) {
        this.configurations = Objects.requireNonNull(configurations, "configurations");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.servers = Objects.requireNonNull(servers, "servers");
        this.modelCheck = Objects.requireNonNull(modelCheck, "modelCheck");
        this.permissions = new Permissions(users);
    }

    @Override
    public AgentImport importJson(Actor actor, String json) {
        return importFrom(actor, json, "the configuration");
    }

    @Override
    public AgentImport importFile(Actor actor, Path file) {
        permissions.requireNow(actor, Operation.IMPORT_AGENTS);
        String json;
        try {
            json = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + reason(e), e);
        }
        return importFrom(actor, json, file.toString());
    }

    private AgentImport importFrom(Actor actor, String json, String source) {
        permissions.requireNow(actor, Operation.IMPORT_AGENTS);
        AgentFile.Contents contents = new AgentFile(new KnownTools(registry, servers.list()), name -> configurations.findModel(name).orElse(null),
                modelCheck).read(json, source);
        configurations.saveAll(contents.models(), contents.agents());
        return new AgentImport(contents.models().stream().map(ModelConfiguration::name).toList(),
                contents.agents().stream().map(StoredAgentConfiguration::name).toList());
    }

    @Override
    public String exportJson(Actor actor) {
        permissions.requireNow(actor, Operation.EXPORT_AGENTS);
        return AgentFileWriter.write(configurations.listModels(), configurations.listAgents());
    }

    @Override
    public AgentImport exportFile(Actor actor, Path file) {
        permissions.requireNow(actor, Operation.EXPORT_AGENTS);
        List<ModelConfiguration> models = configurations.listModels();
        List<StoredAgentConfiguration> agents = configurations.listAgents();
        Path target = file.toAbsolutePath();
        try {
            Path partial = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".partial");
            try {
                Files.writeString(partial, AgentFileWriter.write(models, agents), StandardCharsets.UTF_8);
                Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(partial);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + reason(e), e);
        }
        return new AgentImport(models.stream().map(ModelConfiguration::name).toList(),
                agents.stream().map(StoredAgentConfiguration::name).toList());
    }

    private static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or folder";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
