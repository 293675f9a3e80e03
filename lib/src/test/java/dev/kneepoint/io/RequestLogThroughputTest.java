package dev.kneepoint.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RequestLogThroughputTest {

    @TempDir
    Path tmp;

    @Test
    void writesWellAboveTheRequiredRate() throws Exception {
        RequestLogThroughput.measure(tmp, 20_000); // JIT warm-up
        double rate = RequestLogThroughput.measure(tmp, 50_000);
        // The contract is > 20,000 records/s on one core (measured ~ see report); the floor is 4x lower
        // because this 2-core machine is shared with other builds. A regression to per-record flushing or
        // tree-model serialisation would fall below it.
        assertThat(rate).isGreaterThan(5_000);
    }
}
