package io.countersign.engine.port;

/**
 * The whole run store, as one store implements it and a use case is wired over it. Each part of a use case names
 * the ports it uses: {@link StoredRuns} (the reads), {@link RunStretches} (the loop's driver), {@link RunClaims}
 * (deciding and carrying a decision out), {@link UnfinishedRuns} (after a process stopped) and {@link HostedRuns}
 * (a gateway's runs).
 */
public interface RunRepository extends StoredRuns, RunStretches, RunClaims, UnfinishedRuns, HostedRuns {
}
