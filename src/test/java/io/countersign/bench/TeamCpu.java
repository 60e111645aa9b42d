package io.countersign.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Where the machine's CPU went during a stretch, by part of the team: the CPU time of each process (Linux's
 * {@code /proc} through {@link ProcessHandle.Info#totalCpuDuration}), and the whole machine's busy time from
 * {@code /proc/stat}. Processes that start and end within a stretch are missed; the team's live for its length.
 */
final class TeamCpu {
    /** Linux's clock ticks in {@code /proc/stat}: {@code USER_HZ}, 100 on every architecture it runs on here. */
    private static final double TICKS_PER_SECOND = 100;

    /** The parts a process belongs to. */
    enum Part {
        /** The worker JVMs this benchmark started. */
        WORKERS,
        /** The ledger servers, each a child of a worker. */
        LEDGER_SERVERS,
        /** The PostgreSQL server's processes, wherever on the machine. */
        POSTGRESQL,
        /** This JVM: the deciding clients, the consoles and the feeder. */
        CLIENTS
    }

    /** CPU time by process at one moment, and the machine's busy time. */
    record Sample(Map<Long, Part> parts, Map<Long, Duration> cpu, long machineBusyTicks, long nanos) {
        /** Cores used by each part and by the whole machine between {@code before} and this sample. */
        Usage since(Sample before) {
            double seconds = (nanos - before.nanos) / 1e9;
            Map<Part, Double> cores = new EnumMap<>(Part.class);
            for (Part part : Part.values()) {
                cores.put(part, 0.0);
            }
            cpu.forEach((pid, now) -> {
                Duration then = before.cpu.getOrDefault(pid, Duration.ZERO);
                cores.merge(parts.get(pid), now.minus(then).toNanos() / 1e9 / seconds, Double::sum);
            });
            return new Usage(cores, (machineBusyTicks - before.machineBusyTicks) / TICKS_PER_SECOND / seconds);
        }
    }

    /** Cores used, on average over a stretch. */
    record Usage(Map<Part, Double> byPart, double machine) {
        static final Usage NONE = new Usage(Map.of(), 0);

        double of(Part part) {
            return byPart.getOrDefault(part, 0.0);
        }
    }

    private TeamCpu() {
    }

    static Sample sample() {
        Map<Long, Part> parts = new HashMap<>();
        ProcessHandle self = ProcessHandle.current();
        parts.put(self.pid(), Part.CLIENTS);
        self.descendants().forEach(process -> partOf(process).ifPresent(part -> parts.put(process.pid(), part)));
        ProcessHandle.allProcesses().filter(process -> command(process).endsWith("/postgres")
                || command(process).equals("postgres")).forEach(process -> parts.put(process.pid(), Part.POSTGRESQL));
        Map<Long, Duration> cpu = new HashMap<>();
        parts.keySet().forEach(pid -> ProcessHandle.of(pid).flatMap(process -> process.info().totalCpuDuration())
                .ifPresent(time -> cpu.put(pid, time)));
        return new Sample(parts, cpu, machineBusyTicks(), System.nanoTime());
    }

    private static Optional<Part> partOf(ProcessHandle process) {
        String command = command(process);
        if (command.endsWith("/java")) {
            return Optional.of(Part.WORKERS);
        }
        if (command.endsWith("/node") || command.equals("node")) {
            return Optional.of(Part.LEDGER_SERVERS);
        }
        return Optional.empty();
    }

    private static String command(ProcessHandle process) {
        return process.info().command().orElse("");
    }

    /** The machine's time not idle and not waiting for the disk, over every core, in ticks. */
    private static long machineBusyTicks() {
        try {
            String[] fields = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long[] ticks = Arrays.stream(fields, 1, fields.length).mapToLong(Long::parseLong).toArray();
            // user nice system idle iowait irq softirq steal (guest time is counted in user already)
            return ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6] + ticks[7];
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
