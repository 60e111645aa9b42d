package io.countersign.console.settings;

/** One agent in the grants part of the settings screen, and whether an admin switched its grants off. */
public record AgentGrantSwitch(String agent, boolean off) {
}
