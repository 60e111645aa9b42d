package io.countersign.runtime;

import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.chat.TrustZone;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.service.RunService;
import io.countersign.store.Store;
import io.countersign.store.StoredAgentConfiguration;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Set;

/**
 * The workspace a newcomer sees on a store with no agents: a folder of sample files and scripted agents whose
 * runs leave the inbox showing each kind of card. The agents are scripted: they replay fixed turns (see
 * {@link io.countersign.engine.port.ScriptedChatModel}) and say so in their names and prompts.
 */
final class DemoWorkspace {
    private static final String SCRIPTS = "classpath:/demo/scripts/";
    private final Store store;
    private final RunService runs;

    DemoWorkspace(Store store, RunService runs) {
        this.store = store;
        this.runs = runs;
    }

    /**
     * Creates the folder, the agents and two demo operators, then starts the runs: a file write waiting with
     * its diff beside a delete that {@code workspace.boundary} refused, a form waiting for typed input, a web
     * fetch waiting for approval, and an unattended audit that finishes.
     */
    void create(Path folder) {
        Path workspace = folder.resolve("release-notes");
        copySampleFiles(folder, workspace);
        Actor maria = operator("maria");
        Actor jonas = operator("jonas");
        agent("release-notes-bot", "Keeps the release notes of the sample project tidy.", List.of("files"),
                workspace);
        agent("intake-form", "Files bug reports after asking the person for the details.", List.of("interaction"),
                null);
        agent("web-research", "Compares upstream changelogs with the release notes.", List.of("web"), null);
        agent("workspace-auditor", "Reads the workspace and reports what it holds, without changing anything.",
                List.of("files"), workspace);
        runs.start(maria, "release-notes-bot", "Tidy the release notes for 2.4 (scripted demo agent)", false);
        runs.start(maria, "intake-form", "File a bug: sync stalls on large folders (scripted demo agent)", false);
        runs.start(jonas, "web-research", "Check the upstream changelog against our notes (scripted demo agent)",
                false);
        runs.start(jonas, "workspace-auditor", "What does the workspace hold? (scripted demo agent)", true);
    }

    private Actor operator(String name) {
        Actor admin = store.users().list().stream().filter(Actor::isAdmin).findFirst().orElseThrow(
                () -> new IllegalStateException("the demo needs the store's first user, an admin"));
        return store.users().find(name).orElseGet(() -> store.users().add(name, Set.of(Role.OPERATOR), admin));
    }

    private void agent(String name, String systemPrompt, List<String> groups, Path workspace) {
        ModelConfiguration model = new ModelConfiguration(name + "-script", ScriptedModels.PROVIDER, name,
                SCRIPTS + name + ".json", TrustZone.LOCAL, null, null, null, null);
        store.configurations().saveModel(model);
        AgentConfiguration agent = AgentConfiguration.of(name, model, groups)
                .withSystemPrompt(systemPrompt + " (This is a scripted demo agent: it replays fixed turns.)")
                .withWorkspace(workspace == null ? null : workspace.toString());
        store.configurations().saveAgent(StoredAgentConfiguration.of(agent, "[]"));
    }

    private static void copySampleFiles(Path folder, Path workspace) {
        try {
            Files.createDirectories(workspace);
            copy("NOTES.md", workspace);
            copy("README.md", workspace);
            // Outside the agent's workspace on purpose: the demo's delete of it is refused by a rule.
            copy("old-draft.md", folder);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the demo workspace in " + folder, e);
        }
    }

    private static void copy(String name, Path target) throws IOException {
        try (InputStream in = DemoWorkspace.class.getResourceAsStream("/demo/workspace/" + name)) {
            Files.copy(in, target.resolve(name), StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
