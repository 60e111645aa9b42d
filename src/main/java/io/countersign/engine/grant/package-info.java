/**
 * Standing approvals: a person's grant that lets an agent repeat a call, or calls within a folder, without a pause
 * for a while; consulted by the loop's approval scan through {@link io.countersign.engine.port.StandingGrants}.
 */
package io.countersign.engine.grant;
