package io.countersign.tools;

import io.countersign.engine.tool.Tool;
import java.util.List;
import java.util.function.Supplier;
import okhttp3.OkHttpClient;

/** The local tools every installation has: files in the agent's workspace, web fetches, questions to the person. */
public final class BuiltinTools {

    private BuiltinTools() {
    }

    /**
     * The built-in tools, always in this order: {@code fs_list, fs_read, fs_write, fs_delete, web_fetch,
     * ask_user}.
     *
     * @param client       the shared HTTP client {@code web_fetch} uses, asked for on its first fetch
     * @param allowedHosts the hosts {@code web_fetch} may contact, read at every call; empty allows every host
     */
    public static List<Tool> create(Supplier<OkHttpClient> client, Supplier<List<String>> allowedHosts) {
        return List.of(
                new ListFilesTool(),
                new ReadFileTool(),
                new WriteFileTool(),
                new DeleteFileTool(),
                new WebFetchTool(client, allowedHosts),
                new AskUserTool());
    }
}
