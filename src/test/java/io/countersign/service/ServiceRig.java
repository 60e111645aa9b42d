package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.port.ChatModel;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.ScriptedChatModel;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.countersign.store.StoredAgentConfiguration;
import io.countersign.tools.NetworkntSchemaValidator;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The run service over a real store, wired as every process wires it ({@link DefaultRunService#overStore}), with
 * scripted agents in place of models and the tools a test needs. Each script is an agent of the same name that
 * may use the groups of every tool.
 */
final class ServiceRig implements AutoCloseable {
    final Store store;
    final DefaultRunService service;

    private ServiceRig(Store store, DefaultRunService service) {
        this.store = store;
        this.service = service;
    }

    static ServiceRig open(StoreLocation location, List<Tool> tools, Map<String, List<AssistantTurn>> scripts) {
        return open(location, tools, scripts, InvocationRules.none());
    }

    static ServiceRig open(StoreLocation location, List<Tool> tools, Map<String, List<AssistantTurn>> scripts,
                           InvocationRules rules) {
        return open(location, tools, scripts, rules, ScriptedChatModel.byModel(scripts));
    }

    /** As the others, with the scripts' agents answered by {@code model} (one that holds or wraps the scripts). */
    static ServiceRig open(StoreLocation location, List<Tool> tools, Map<String, List<AssistantTurn>> scripts,
                           InvocationRules rules, ChatModel model) {
        Store store = Store.open(location);
        try {
            saveAgents(store, tools, scripts);
            operators(store, "olga", "jonas");
            return new ServiceRig(store, DefaultRunService.overStore(store, ToolRegistry.of(tools.toArray(Tool[]::new)),
                    new NetworkntSchemaValidator(), model, rules, Clock.systemUTC(), IdGenerator.random(),
                    Locale.ENGLISH));
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /**
     * Makes the store know these people as operators: the services read the roles of every actor from the store,
     * so a test's {@code Actor.of("olga", OPERATOR)} acts as the operator the store says olga is.
     */
    static void operators(Store store, String... names) {
        for (String name : names) {
            if (store.users().find(name).isEmpty()) {
                try {
                    store.users().add(name, Set.of(Role.OPERATOR), Actor.of("test-setup"));
                } catch (RuntimeException raced) {
                    // Another process of the same test added them first.
                    store.users().find(name).orElseThrow(() -> raced);
                }
            }
        }
    }

    /** Saves an agent of each script's name, on a scripted model of the same name, that may use every tool's group. */
    static void saveAgents(Store store, List<Tool> tools, Map<String, List<AssistantTurn>> scripts) {
        List<String> groups = tools.stream().map(Tool::group).distinct().toList();
        for (String agent : scripts.keySet()) {
            ModelConfiguration model = ModelConfiguration.scripted(agent);
            store.configurations().saveModel(model);
            store.configurations().saveAgent(StoredAgentConfiguration.of(
                    AgentConfiguration.of(agent, model, groups), "[]"));
        }
    }

    @Override
    public void close() {
        store.close();
    }
}
