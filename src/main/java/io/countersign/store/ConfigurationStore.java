package io.countersign.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.engine.Json;
import io.countersign.engine.chat.TrustZone;
import io.countersign.engine.agent.ApprovalQuorum;
import io.countersign.engine.chat.ModelConfiguration;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Optional;

/** Model and agent configurations, saved whole and found by name. */
public final class ConfigurationStore {
    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {
    };
    private static final TypeReference<Map<String, Integer>> COUNTS = new TypeReference<>() {
    };
    private static final String MODEL_COLUMNS = "name, provider, model, endpoint, trust_zone, temperature,"
            + " max_tokens, api_key_environment, api_key_file";
    private static final String AGENT_COLUMNS = "name, system_prompt, model_name, tool_groups, allowed_tools,"
            + " workspace, tool_call_policies, max_rounds, four_eyes, decision_deadlines, approvals, tool_approvals";

    private final Database database;

    ConfigurationStore(Database database) {
        this.database = database;
    }

    /** Saves a model configuration, replacing the one of the same name. */
    public void saveModel(ModelConfiguration model) {
        database.write("save the model configuration " + model.name(), ChangeKind.SETTINGS, connection -> {
            upsertModel(connection, model);
            return null;
        });
    }

    /**
     * Saves model and agent configurations in one transaction, models first, each replacing the one of the same
     * name: either all of them are saved or, when one fails, none.
     *
     * @throws IllegalArgumentException when an agent's model configuration is neither among {@code models} nor in
     *                                  the store, or its tool-call policies are not a JSON array
     */
    public void saveAll(List<ModelConfiguration> models, List<StoredAgentConfiguration> agents) {
        agents.forEach(ConfigurationStore::requireJsonArray);
        database.write("save " + models.size() + " model and " + agents.size() + " agent configurations",
                ChangeKind.SETTINGS, connection -> {
                    for (ModelConfiguration model : models) {
                        upsertModel(connection, model);
                    }
                    for (StoredAgentConfiguration agent : agents) {
                        upsertAgent(connection, agent);
                    }
                    return null;
                });
    }

    private static void upsertModel(Connection connection, ModelConfiguration model) throws SQLException {
        try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO model_configurations ("
                + MODEL_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET"
                + " provider = excluded.provider, model = excluded.model, endpoint = excluded.endpoint,"
                + " trust_zone = excluded.trust_zone, temperature = excluded.temperature,"
                + " max_tokens = excluded.max_tokens, api_key_environment = excluded.api_key_environment,"
                + " api_key_file = excluded.api_key_file")) {
            upsert.setString(1, model.name());
            upsert.setString(2, model.provider());
            upsert.setString(3, model.model());
            upsert.setString(4, model.endpoint());
            upsert.setString(5, model.trustZone().code());
            if (model.temperature() == null) {
                upsert.setNull(6, Types.DOUBLE);
            } else {
                upsert.setDouble(6, model.temperature());
            }
            if (model.maxTokens() == null) {
                upsert.setNull(7, Types.INTEGER);
            } else {
                upsert.setInt(7, model.maxTokens());
            }
            upsert.setString(8, model.apiKeyEnvironment());
            upsert.setString(9, model.apiKeyFile());
            upsert.executeUpdate();
        }
    }

    /** The model configuration of this name, if the store has it. */
    public Optional<ModelConfiguration> findModel(String name) {
        return database.read("read the model configuration " + name,
                connection -> models(connection, " WHERE name = ?", name).stream().findFirst());
    }

    /** Every model configuration, by name. */
    public List<ModelConfiguration> listModels() {
        return database.read("read the model configurations", connection -> models(connection, "", null));
    }

    /**
     * Saves an agent configuration, replacing the one of the same name.
     *
     * @throws IllegalArgumentException when its model configuration is not in the store, or its tool-call
     *                                  policies are not a JSON array
     */
    public void saveAgent(StoredAgentConfiguration agent) {
        requireJsonArray(agent);
        database.write("save the agent configuration " + agent.name(), ChangeKind.SETTINGS, connection -> {
            upsertAgent(connection, agent);
            return null;
        });
    }

    private static void upsertAgent(Connection connection, StoredAgentConfiguration agent) throws SQLException {
        if (models(connection, " WHERE name = ?", agent.modelName()).isEmpty()) {
            throw new IllegalArgumentException("agent configuration \"" + agent.name()
                    + "\" names the model configuration \"" + agent.modelName() + "\", which the store does"
                    + " not have; save the model configuration first");
        }
        try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO agent_configurations ("
                + AGENT_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET"
                + " system_prompt = excluded.system_prompt, model_name = excluded.model_name,"
                + " tool_groups = excluded.tool_groups, allowed_tools = excluded.allowed_tools,"
                + " workspace = excluded.workspace, tool_call_policies = excluded.tool_call_policies,"
                + " max_rounds = excluded.max_rounds, four_eyes = excluded.four_eyes,"
                + " decision_deadlines = excluded.decision_deadlines, approvals = excluded.approvals,"
                + " tool_approvals = excluded.tool_approvals")) {
            upsert.setString(1, agent.name());
            upsert.setString(2, agent.systemPrompt());
            upsert.setString(3, agent.modelName());
            upsert.setString(4, Json.mapper().writeValueAsString(agent.toolGroups()));
            upsert.setString(5, Json.mapper().writeValueAsString(agent.allowedTools()));
            upsert.setString(6, agent.workspace());
            upsert.setString(7, agent.toolCallPolicies());
            upsert.setInt(8, agent.maxRounds());
            upsert.setBoolean(9, agent.fourEyes());
            upsert.setString(10, StoredDeadlines.toJson(agent.deadlines()));
            upsert.setInt(11, agent.approvals().approvals());
            upsert.setString(12, agent.approvals().tools().isEmpty() ? null
                    : Json.mapper().writeValueAsString(new TreeMap<>(agent.approvals().tools())));
            upsert.executeUpdate();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a list of names did not turn into JSON", e);
        }
    }

    /**
     * The settings' change counter, which every save of a model or agent configuration moves (tool settings, users
     * and roles move it too). Read before a configuration, an unchanged counter proves that configuration current.
     */
    public long changeCount() {
        return database.read("read the settings' change counter",
                connection -> database.changes().readCounter(connection, ChangeKind.SETTINGS));
    }

    /**
     * Removes an agent configuration; the runs it made stay, naming it.
     *
     * @return whether the store had it
     */
    public boolean removeAgent(String name) {
        return database.write("remove the agent configuration " + name, ChangeKind.SETTINGS, connection -> {
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM agent_configurations"
                    + " WHERE name = ?")) {
                delete.setString(1, name);
                return delete.executeUpdate() == 1;
            }
        });
    }

    /** The agent configuration of this name, if the store has it. */
    public Optional<StoredAgentConfiguration> findAgent(String name) {
        return database.read("read the agent configuration " + name,
                connection -> agents(connection, " WHERE name = ?", name).stream().findFirst());
    }

    /** Every agent configuration, by name. */
    public List<StoredAgentConfiguration> listAgents() {
        return database.read("read the agent configurations", connection -> agents(connection, "", null));
    }

    /** Whether any agent is configured; reads no configuration, so that a start-up check decodes nothing. */
    public boolean hasAgents() {
        return database.read("look for agent configurations", connection -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT 1 FROM agent_configurations"
                    + " LIMIT 1");
                 ResultSet rows = select.executeQuery()) {
                return rows.next();
            }
        });
    }

    private static void requireJsonArray(StoredAgentConfiguration agent) {
        JsonNode policies;
        try {
            policies = Json.mapper().readTree(agent.toolCallPolicies());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("agent configuration \"" + agent.name() + "\": the tool-call"
                    + " policies are not valid JSON (" + e.getOriginalMessage() + ")", e);
        }
        if (policies == null || !policies.isArray()) {
            throw new IllegalArgumentException("agent configuration \"" + agent.name() + "\": the tool-call"
                    + " policies must be a JSON array");
        }
    }

    private static List<ModelConfiguration> models(Connection connection, String where, String name)
            throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT " + MODEL_COLUMNS
                + " FROM model_configurations" + where + " ORDER BY name")) {
            if (name != null) {
                select.setString(1, name);
            }
            try (ResultSet rows = select.executeQuery()) {
                List<ModelConfiguration> models = new ArrayList<>();
                while (rows.next()) {
                    double temperature = rows.getDouble(6);
                    Double maybeTemperature = rows.wasNull() ? null : temperature;
                    int maxTokens = rows.getInt(7);
                    Integer maybeMaxTokens = rows.wasNull() ? null : maxTokens;
                    models.add(stored(() -> new ModelConfiguration(rows.getString(1), rows.getString(2),
                            rows.getString(3), rows.getString(4), TrustZone.fromCode(rows.getString(5)),
                            maybeTemperature, maybeMaxTokens, rows.getString(8), rows.getString(9))));
                }
                return models;
            }
        }
    }

    private static List<StoredAgentConfiguration> agents(Connection connection, String where, String name)
            throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT " + AGENT_COLUMNS
                + " FROM agent_configurations" + where + " ORDER BY name")) {
            if (name != null) {
                select.setString(1, name);
            }
            try (ResultSet rows = select.executeQuery()) {
                List<StoredAgentConfiguration> agents = new ArrayList<>();
                while (rows.next()) {
                    agents.add(stored(() -> new StoredAgentConfiguration(rows.getString(1), rows.getString(2),
                            rows.getString(3), Json.mapper().readValue(rows.getString(4), STRINGS),
                            Json.mapper().readValue(rows.getString(5), STRINGS), rows.getString(6), rows.getString(7),
                            rows.getInt(8), rows.getBoolean(9), StoredDeadlines.fromJson(rows.getString(10)),
                            new ApprovalQuorum(rows.getInt(11), rows.getString(12) == null ? Map.of()
                                    : Json.mapper().readValue(rows.getString(12), COUNTS)))));
                }
                return agents;
            }
        }
    }

    /** A row that no longer makes a valid configuration is damaged state: say which, do not guess. */
    private static <T> T stored(StoredRow<T> row) throws SQLException {
        try {
            return row.read();
        } catch (IllegalArgumentException | JsonProcessingException e) {
            throw new SQLException("a stored configuration is damaged: " + e.getMessage(), e);
        }
    }

    @FunctionalInterface
    private interface StoredRow<T> {
        T read() throws SQLException, JsonProcessingException;
    }
}
