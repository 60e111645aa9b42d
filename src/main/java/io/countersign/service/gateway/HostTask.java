package io.countersign.service.gateway;

import java.util.concurrent.CompletableFuture;

/**
 * A host's tool call made as an MCP task: its id, {@code RUN/CALL}, names the run and the call its card waits on,
 * and {@code answer} completes with what the call came to, as a call's answer does.
 */
public record HostTask(String id, CompletableFuture<HostAnswer> answer) {
}
