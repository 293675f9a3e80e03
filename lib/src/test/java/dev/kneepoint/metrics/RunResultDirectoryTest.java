package dev.kneepoint.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RunResultDirectoryTest {

    @Test
    void theOlderConstructorsHaveNoDirectoryAndWithDirectoryKeepsEverythingElse() {
        RunResult five = new RunResult("r", List.of(), true, Instant.EPOCH, "t");
        RunResult six = new RunResult("r", List.of(), true, Instant.EPOCH, "t", Optional.empty());
        assertThat(five.directory()).isEmpty();
        assertThat(six.directory()).isEmpty();
        assertThat(new RunResult("r", List.of(), true, Instant.EPOCH, "t", null, null).directory()).isEmpty();
        RunResult placed = five.withDirectory(Path.of("runs", "r"));
        assertThat(placed.directory()).contains(Path.of("runs/r"));
        assertThat(placed).isNotEqualTo(five);
        assertThat(placed.withDirectory(Path.of("elsewhere")).runId()).isEqualTo("r");
        assertThat(new RunResult(placed.runId(), placed.steps(), placed.complete(), placed.startTime(),
                placed.target(), placed.background())).isEqualTo(five);
        assertThatThrownBy(() -> five.withDirectory(null)).isInstanceOf(NullPointerException.class);
    }
}
