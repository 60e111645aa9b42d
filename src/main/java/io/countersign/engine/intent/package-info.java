/**
 * Intent routing: declarative {@link io.countersign.engine.intent.ToolCallPolicy} records that choose the model
 * before a round (the PRE seam) and redirect an emitted call after it (the POST seam), over the raw seams
 * {@link io.countersign.engine.intent.RoleModelResolver} and {@link io.countersign.engine.intent.ToolCallDispatchHook}.
 * With no policies the loop behaves exactly as without the feature.
 */
package io.countersign.engine.intent;
