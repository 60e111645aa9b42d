package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.countersign.store.StoredAgentConfiguration;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentDirectoryTest {
    @TempDir
    Path folder;

    private static void save(Store store, String model, List<String> groups) {
        ModelConfiguration configuration = ModelConfiguration.scripted(model);
        store.configurations().saveModel(configuration);
        store.configurations().saveAgent(StoredAgentConfiguration.of(
                AgentConfiguration.of("triage", configuration, groups), "[]"));
    }

    @Test
    void keptConfigurationIsNeverUsedAfterAnotherStoreSavedTheAgent() {
        StoreLocation location = new StoreLocation.SqliteFile(folder.resolve("countersign.db"));
        try (Store here = Store.open(location); Store elsewhere = Store.open(location)) {
            save(here, "first", List.of("files"));
            AgentDirectory directory = new AgentDirectory(here.configurations());
            AgentConfiguration read = directory.get("triage");

            assertThat(directory.get("triage")).isSameAs(read);

            // The other store's change feed has not reached this one yet: the counter is read at every get.
            save(elsewhere, "second", List.of("files", "web"));
            AgentConfiguration after = directory.get("triage");

            assertThat(after.model().name()).isEqualTo("second");
            assertThat(after.toolGroups()).containsExactly("files", "web");
        }
    }

    @Test
    void savingAModelAloneMovesTheCounterToo() {
        StoreLocation location = new StoreLocation.SqliteFile(folder.resolve("countersign.db"));
        try (Store store = Store.open(location)) {
            save(store, "replay", List.of("files"));
            long before = store.configurations().changeCount();

            store.configurations().saveModel(ModelConfiguration.scripted("replay"));

            assertThat(store.configurations().changeCount()).isGreaterThan(before);
        }
    }
}
