package io.countersign.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.tool.InputField;
import io.countersign.engine.tool.InputPrompts;
import io.countersign.engine.tool.InputValidation;
import io.countersign.engine.tool.InvalidInputException;
import io.countersign.engine.tool.SchemaValidator;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The questions tools of this process's runs ask during a call (an MCP server's elicitation), waiting for a
 * person. A question lives only as long as its call: it is held here, in memory, with the call waiting on it, and
 * is never written to the store, so another process cannot answer it. It is asked only while a surface that shows
 * questions is attached ({@link #attach}); otherwise, and after {@link InputPrompts#LONGEST_WAIT}, it is declined
 * or cancelled so that the call goes on. Answers are checked against the fields as an input pause's are.
 */
public final class AskedInputs implements InputPrompts {
    /** A question as a person is shown it. */
    public record Asked(String id, String runId, String toolName, String message, List<InputField> fields,
                        Instant askedAt) {
        public Asked {
            fields = List.copyOf(fields);
        }
    }

    private record Waiting(Asked asked, CompletableFuture<Answer> answer) {
    }

    private final Clock clock;
    private final IdGenerator ids;
    private final SchemaValidator schemas;
    private final Duration wait;
    private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();
    private final List<Runnable> surfaces = new CopyOnWriteArrayList<>();

    /** Questions whose answers are checked with {@code schemas}, as an input pause's are. */
    public AskedInputs(Clock clock, IdGenerator ids, SchemaValidator schemas) {
        this(clock, ids, schemas, LONGEST_WAIT);
    }

    AskedInputs(Clock clock, IdGenerator ids, SchemaValidator schemas, Duration wait) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ids = Objects.requireNonNull(ids, "ids");
        this.schemas = Objects.requireNonNull(schemas, "schemas");
        this.wait = Objects.requireNonNull(wait, "wait");
    }

    /**
     * Attaches a surface that shows the questions; {@code changed} runs (on the asking thread) whenever one is
     * asked or goes. Closing the returned handle detaches it.
     */
    public AutoCloseable attach(Runnable changed) {
        Objects.requireNonNull(changed, "changed");
        surfaces.add(changed);
        return () -> surfaces.remove(changed);
    }

    /** Whether this person may see the questions and answer them, so that a surface of theirs shows them. */
    public boolean mayAnswer(Actor actor) {
        return Permissions.allows(actor, Operation.VIEW_INBOX) && Permissions.allows(actor, Operation.SUBMIT_INPUT);
    }

    /** The questions that wait, oldest first. */
    public List<Asked> waiting(Actor actor) {
        Permissions.require(actor, Operation.VIEW_INBOX);
        return waiting.values().stream().map(Waiting::asked).sorted(Comparator.comparing(Asked::askedAt)).toList();
    }

    /**
     * Answers a question with values; returns false when it no longer waits.
     *
     * @throws InvalidInputException when the values do not fit the fields; the question still waits
     */
    public boolean accept(Actor actor, String id, ObjectNode values) {
        Permissions.require(actor, Operation.SUBMIT_INPUT);
        Optional<Waiting> found = Optional.ofNullable(waiting.get(id));
        if (found.isEmpty()) {
            return false;
        }
        List<InputValidation.FieldError> errors = InputValidation.validate(schemas, found.get().asked().fields(),
                values);
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        return found.get().answer().complete(new Answer.Accepted(actor, values));
    }

    /** Declines a question; false when it no longer waits. */
    public boolean decline(Actor actor, String id) {
        Permissions.require(actor, Operation.SUBMIT_INPUT);
        Waiting found = waiting.get(id);
        return found != null && found.answer().complete(new Answer.Declined(actor, "declined by " + actor.name()));
    }

    /** Dismisses a question without an answer; false when it no longer waits. */
    public boolean cancel(Actor actor, String id) {
        Permissions.require(actor, Operation.SUBMIT_INPUT);
        Waiting found = waiting.get(id);
        return found != null && found.answer().complete(new Answer.Cancelled(actor));
    }

    @Override
    public Answer ask(Question question) {
        if (question.fields().isEmpty()) {
            return new Answer.Declined(null, "the form cannot be shown as typed fields");
        }
        if (surfaces.isEmpty()) {
            return new Answer.Declined(null, "no one in this process is shown questions");
        }
        Asked asked = new Asked(ids.next(), question.call().context().runReference(), question.call().toolName(),
                question.message(), question.fields(), clock.instant());
        Waiting entry = new Waiting(asked, new CompletableFuture<>());
        waiting.put(asked.id(), entry);
        changed();
        try {
            return entry.answer().get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return new Answer.Cancelled(null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer.Cancelled(null);
        } catch (ExecutionException e) {
            throw new IllegalStateException("an answer cannot fail", e);
        } finally {
            waiting.remove(asked.id());
            changed();
        }
    }

    private void changed() {
        surfaces.forEach(Runnable::run);
    }
}
