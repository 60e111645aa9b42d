package io.countersign.bench;

/** Runs the project's JMH benchmarks: the arguments are JMH's own (a name filter, {@code -f}, {@code -wi}, ...). */
public final class BenchmarkMain {
    private BenchmarkMain() {
    }

    public static void main(String[] args) throws Exception {
        org.openjdk.jmh.Main.main(args);
    }
}
