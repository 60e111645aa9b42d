/**
 * What crosses the model port: the request ({@link io.countersign.engine.chat.ChatRequest}) with the
 * {@link io.countersign.engine.chat.ModelConfiguration} it goes to and that model's
 * {@link io.countersign.engine.chat.TrustZone}, the messages, the calls a model asks for
 * ({@link io.countersign.engine.chat.ToolCall}), its turn and the tokens it used. Values only, above the tool
 * vocabulary; the port itself ({@link io.countersign.engine.port.ChatModel}) sits above them.
 */
package io.countersign.engine.chat;
