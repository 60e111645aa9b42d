package io.countersign.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.EventPage;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.PageRequest;
import io.countersign.service.EventCursors;
import io.countersign.service.EventService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code events} and {@code events purge}. */
final class EventCommands {
    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d{1,6})([dhm])");

    private EventCommands() {
    }

    /** What {@code --count-by} counts by. */
    enum CountBy {
        REASON, RULE, TOOL, DAY
    }

    @Command(name = "events", description = "The recorded governance events, newest first: a page at a time"
            + " (--limit, --after), counted (--count-by), or every match as CSV (--all --format csv).",
            subcommands = Purge.class)
    static final class Events extends Subcommand {
        @Option(names = "--type", paramLabel = "TYPE", split = ",", description = "Any of these types: tool_denied,"
                + " invocation_denied, write_unapproved, approval_decided, input_submitted, input_elicited.")
        List<String> types = List.of();

        @Option(names = "--reason", paramLabel = "CODE", description = "Exactly this reason code.")
        String reason;

        @Option(names = "--rule", paramLabel = "RULE", description = "Exactly this rule.")
        String rule;

        @Option(names = "--tool", paramLabel = "TOOL", description = "Exactly this tool.")
        String tool;

        @Option(names = "--agent", paramLabel = "NAME", description = "Exactly this agent configuration.")
        String agent;

        @Option(names = "--actor", paramLabel = "USER", description = "Exactly this actor.")
        String actor;

        @Option(names = "--run", paramLabel = "RUN", description = "Exactly this run.")
        String run;

        @Option(names = "--text", paramLabel = "TEXT", description = "Appears in a code, name or id.")
        String text;

        @Option(names = "--since", paramLabel = "TIME", description = "From this instant or UTC date, inclusive.")
        String since;

        @Option(names = "--until", paramLabel = "TIME", description = "Before this instant or UTC date.")
        String until;

        @Option(names = "--limit", paramLabel = "N", defaultValue = "50",
                description = "Events on a page, 1 to 1000 (default: ${DEFAULT-VALUE}).")
        int limit;

        @Option(names = "--after", paramLabel = "CURSOR", description = "The page after this cursor (the \"next\""
                + " value a page printed).")
        String after;

        @Option(names = "--count-by", paramLabel = "reason|rule|tool|day",
                description = "Count the matching events instead of listing them (days in UTC).")
        CountBy countBy;

        @Option(names = "--all", description = "Every matching event, streamed as CSV; needs --format csv.")
        boolean all;

        @Override
        public Integer call() throws IOException {
            EventFilter filter = filter();
            EventService events = runtime().events();
            if (countBy != null) {
                return counts(events, filter);
            }
            if (all) {
                if (root().format != Output.Format.CSV) {
                    throw CliFailure.usage("--all streams CSV; add --format csv");
                }
                try {
                    events.exportCsv(actor(), filter, spec.commandLine().getOut());
                } catch (UncheckedIOException e) {
                    throw new IOException(e.getMessage(), e);
                }
                return Cli.DONE;
            }
            PageRequest request = after == null ? PageRequest.first(limit)
                    : PageRequest.after(EventCursors.decode(after), limit);
            EventPage page = events.page(actor(), filter, request);
            ArrayNode list = Views.array();
            page.events().forEach(event -> list.add(Views.event(event)));
            String next = page.nextCursor().map(EventCursors::encode).orElse(null);
            ObjectNode result = Views.object();
            result.set("events", list);
            result.put("next", next);
            print(result, Output.Table.of(list));
            if (next != null && root().format == Output.Format.TABLE) {
                spec.commandLine().getOut().println("more: --after " + next);
                spec.commandLine().getOut().flush();
            }
            return Cli.DONE;
        }

        private int counts(EventService events, EventFilter filter) {
            ArrayNode counts = Views.array();
            if (countBy == CountBy.DAY) {
                events.countsByDay(actor(), filter, ZoneOffset.UTC).forEach(count -> counts.addObject()
                        .put("day", count.day().toString()).put("count", count.count()));
            } else {
                events.counts(actor(), filter, EventService.EventDimension.valueOf(countBy.name()))
                        .forEach(count -> counts.addObject().put("key", count.key()).put("count", count.count()));
            }
            return print(counts);
        }

        private EventFilter filter() {
            Set<EventType> kinds = new HashSet<>();
            types.forEach(type -> kinds.add(EventType.fromCode(type.toLowerCase(Locale.ROOT))));
            return EventFilter.all().between(instant("--since", since), instant("--until", until)).ofTypes(kinds)
                    .withReasonCode(reason).withRuleId(rule).withToolName(tool).withAgentConfiguration(agent)
                    .withActor(actor).withRunId(run).withText(text);
        }
    }

    @Command(name = "purge", description = "Delete the events older than an age (90d, 12h, 30m or ISO-8601 like"
            + " P90D): the retention purge. Admins only.")
    static final class Purge extends Subcommand {
        @Option(names = "--older-than", required = true, paramLabel = "AGE", description = "90d, 12h, 30m or P90D.")
        String olderThan;

        @Override
        public Integer call() {
            return print(Views.object().put("deleted", runtime().events().purgeOlderThan(actor(),
                    duration(olderThan))));
        }
    }

    /** An instant as given, or the start of a UTC date; {@code null} stays {@code null}. */
    static Instant instant(String option, String value) {
        if (value == null) {
            return null;
        }
        try {
            return value.length() == 10 ? LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant()
                    : Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw CliFailure.usage(option + " \"" + value + "\" is neither a date like 2026-03-01 nor an instant like"
                    + " 2026-03-01T12:00:00Z");
        }
    }

    static Duration duration(String value) {
        Matcher shorthand = SHORT_DURATION.matcher(value);
        if (shorthand.matches()) {
            long amount = Long.parseLong(shorthand.group(1));
            return switch (shorthand.group(2)) {
                case "d" -> Duration.ofDays(amount);
                case "h" -> Duration.ofHours(amount);
                default -> Duration.ofMinutes(amount);
            };
        }
        try {
            return Duration.parse(value);
        } catch (DateTimeParseException e) {
            throw CliFailure.usage("\"" + value + "\" is not an age; give 90d, 12h, 30m or an ISO-8601 duration like"
                    + " P90D");
        }
    }
}
