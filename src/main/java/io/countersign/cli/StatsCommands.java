package io.countersign.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.stats.DecisionLatencyRow;
import io.countersign.engine.stats.DecisionStats;
import io.countersign.engine.stats.DecisionStatsQuery;
import io.countersign.engine.stats.Latencies;
import io.countersign.engine.stats.LatencyBuckets;
import io.countersign.engine.stats.LatencyText;
import io.countersign.engine.stats.StatsDimension;
import io.countersign.engine.stats.WaitingAge;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code stats decisions}: how long decisions take, from the counts the store keeps with each decision. */
final class StatsCommands {
    private static final Pattern SPAN = Pattern.compile("(\\d{1,5})([dh])");

    private StatsCommands() {
    }

    @Command(name = "stats", description = "Statistics from the counts the store keeps as it goes. Supervisors and"
            + " admins.", subcommands = Decisions.class)
    static final class StatsGroup extends Subcommand {
        @Override
        public Integer call() {
            throw CliFailure.usage("say which statistics: countersign stats decisions");
        }
    }

    @Command(name = "decisions", description = "How long cards waited for a decision: p50, p90 and the largest, by"
            + " agent, tool or operator, with the cards that expired or were escalated, and the cards waiting now by"
            + " age. Counted by whole UTC days; the percentiles are read from log-scale buckets, within 4.4 %.")
    static final class Decisions extends Subcommand {
        @Option(names = "--since", paramLabel = "SPAN|DATE", defaultValue = "30d", description = "From this many"
                + " days (30d) or hours (12h) back, or from this UTC date (2026-03-01), through today; the days are"
                + " whole UTC days. Default: 30d.")
        String since;

        @Option(names = "--by", paramLabel = "agent|tool|operator", defaultValue = "agent", description = "Group by"
                + " the run's agent, each tool the card waited on, or the person who decided. Default: agent.")
        String by;

        @Override
        public Integer call() {
            StatsDimension dimension = StatsDimension.fromCode(by).orElseThrow(() -> CliFailure.usage("--by must be "
                    + StatsDimension.choices() + ", got \"" + by + "\""));
            Instant now = Instant.now();
            LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
            DecisionStatsQuery query = new DecisionStatsQuery(firstDay(since, now, today), today, dimension);
            DecisionStats stats = runtime().decisionStats().decisions(actor(), query);
            ObjectNode view = Views.object().put("by", dimension.code())
                    .put("firstDay", query.firstDay().toString()).put("lastDay", query.lastDay().toString())
                    .put("percentileError", Math.round(LatencyBuckets.RELATIVE_ERROR * 10_000) / 10_000.0);
            ArrayNode rows = view.putArray("rows");
            List<List<String>> table = new ArrayList<>();
            for (DecisionLatencyRow row : stats.rows()) {
                rows.add(row(row));
                table.add(columns(row));
            }
            view.set("total", row(stats.total()));
            table.add(columns(stats.total()));
            ObjectNode waiting = view.putObject("waitingNow").put("total", stats.waiting().total())
                    .put("oldestSince", stats.waiting().oldestSince() == null ? null
                            : Views.time(stats.waiting().oldestSince()));
            ObjectNode byAge = waiting.putObject("byAge");
            for (Map.Entry<WaitingAge, Long> band : stats.waiting().byAge().entrySet()) {
                byAge.put(ageKey(band.getKey()), band.getValue());
            }
            return print(view, new Output.Table(List.of(dimension.code(), "decisions", "p50", "p90", "max",
                    "expired", "escalated"), table));
        }
    }

    /** The first day of {@code --since}: a span back from now, or a UTC date. */
    static LocalDate firstDay(String since, Instant now, LocalDate today) {
        Matcher span = SPAN.matcher(since);
        if (span.matches()) {
            Duration back = span.group(2).equals("d") ? Duration.ofDays(Long.parseLong(span.group(1)))
                    : Duration.ofHours(Long.parseLong(span.group(1)));
            return LocalDate.ofInstant(now.minus(back), ZoneOffset.UTC);
        }
        try {
            LocalDate date = LocalDate.parse(since);
            if (date.isAfter(today)) {
                throw CliFailure.usage("--since " + since + " is after today (" + today + ", UTC)");
            }
            return date;
        } catch (DateTimeParseException e) {
            throw CliFailure.usage("--since \"" + since + "\" is neither a span like 30d or 12h nor a date like"
                    + " 2026-03-01");
        }
    }

    private static ObjectNode row(DecisionLatencyRow row) {
        Latencies latencies = row.latencies();
        return Views.object().put("name", row.name()).put("decisions", latencies.decisions())
                .put("p50Seconds", seconds(latencies.p50())).put("p90Seconds", seconds(latencies.p90()))
                .put("maxSeconds", seconds(latencies.max())).put("meanSeconds", seconds(latencies.mean()))
                .put("expired", row.expired()).put("escalated", row.escalated());
    }

    private static List<String> columns(DecisionLatencyRow row) {
        Latencies latencies = row.latencies();
        boolean none = latencies.decisions() == 0;
        return List.of(row.name(), Long.toString(latencies.decisions()), none ? "-" : LatencyText.of(latencies.p50()),
                none ? "-" : LatencyText.of(latencies.p90()), none ? "-" : LatencyText.of(latencies.max()),
                Long.toString(row.expired()), Long.toString(row.escalated()));
    }

    private static double seconds(Duration duration) {
        return duration.toMillis() / 1000.0;
    }

    /** {@code under1m}, {@code under10m}, {@code under1h}, {@code under8h}, {@code under1d}, {@code dayOrMore}. */
    private static String ageKey(WaitingAge band) {
        return switch (band) {
            case UNDER_MINUTE -> "under1m";
            case UNDER_10_MINUTES -> "under10m";
            case UNDER_HOUR -> "under1h";
            case UNDER_8_HOURS -> "under8h";
            case UNDER_DAY -> "under1d";
            case DAY_OR_MORE -> "dayOrMore";
        };
    }
}
