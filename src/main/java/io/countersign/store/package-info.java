/**
 * The durable store: one SQLite file on a single desk, or one PostgreSQL database shared by a team, behind the
 * same schema ({@code db/migration/V*.sql}, applied by Flyway) and the same plain JDBC.
 *
 * <p>Open it with {@link io.countersign.store.Store#open}; choose where with
 * {@link io.countersign.store.StoreLocation#resolve}. The repositories:
 * {@link io.countersign.store.EventStore} (governance events, append-only, the engine's {@code EventSink}),
 * {@link io.countersign.store.SettingsStore} (tool settings, the engine's {@code ToolSettingsSource}, and the
 * record of admin changes), {@link io.countersign.store.UserStore}, {@link io.countersign.store.ConfigurationStore},
 * {@link io.countersign.store.RunStore} (runs, decisions, the worker queue and the execution journal, the engine's
 * {@code RunRepository} and {@code RunQueue}), and {@link io.countersign.store.ChangeFeed} for "something changed"
 * signals across consoles. Statements name their parameters ({@code NamedStatement}); the event queries are planned
 * by {@code Where} and {@code CountUnion}.
 *
 * <p>Tables: {@code governance_events} (with the counts of them by hour, {@code governance_event_code_counts} and
 * {@code governance_event_counts}, and by day, {@code governance_event_code_day_counts} and
 * {@code governance_event_day_counts}, which the charts add up), {@code tool_settings}, {@code setting_changes},
 * {@code users}, {@code user_roles}, {@code model_configurations}, {@code agent_configurations},
 * {@code change_counters}, {@code runs}, {@code decisions}, {@code call_intents}, and {@code store_sessions} (the
 * processes that have the store open, so that start-up reconciliation touches only the runs of processes that
 * stopped).
 * Times are {@code BIGINT} nanoseconds since the epoch. Reads run in auto-commit; every write is one
 * transaction (begun IMMEDIATE on SQLite); a write that others must hear of bumps its change counter inside
 * that transaction and is announced after commit.
 */
package io.countersign.store;
