/**
 * How long decisions take: the fixed log-scale buckets latencies are counted in, the figures read from them, and
 * the query and result values of the decision statistics. Plain Java; the store keeps the counts.
 */
package io.countersign.engine.stats;
