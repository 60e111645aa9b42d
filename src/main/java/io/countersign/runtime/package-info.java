/**
 * The wiring: {@link io.countersign.runtime.CountersignRuntime} builds every service over one store, with the
 * models, the local tools, the remote servers (connected by the MCP adapter) and the demo workspace. It sits below both front
 * ends: the command line and the console's launcher (in {@code app}) share it.
 */
package io.countersign.runtime;
