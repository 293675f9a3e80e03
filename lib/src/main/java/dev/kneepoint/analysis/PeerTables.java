package dev.kneepoint.analysis;

import dev.kneepoint.io.PeerPoint;
import dev.kneepoint.io.PeerResults;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** {@link Tables#peers}: other tools' result files, and Kneepoint runs, as one table of load levels. */
final class PeerTables {
    private PeerTables() {
    }

    private record Column(String name, ToDoubleFunction<PeerPoint> value) {
    }

    private static final List<Column> NUMBERS = List.of(new Column("load", PeerPoint::load),
            new Column("requests_ok", PeerPoint::requestsOk), new Column("requests_failed", PeerPoint::requestsFailed),
            new Column("output_tokens", PeerPoint::outputTokens), new Column("duration_s", PeerPoint::durationS),
            new Column("ttft_p50_ms", PeerPoint::ttftP50Ms), new Column("ttft_p99_ms", PeerPoint::ttftP99Ms),
            new Column("tpot_p50_ms", PeerPoint::tpotP50Ms),
            new Column("output_tokens_per_s", PeerPoint::outputTokensPerS),
            new Column("requests_per_s", PeerPoint::requestsPerS), new Column("lag_p50_ms", PeerPoint::lagP50Ms),
            new Column("lag_p99_ms", PeerPoint::lagP99Ms), new Column("dispatch_rps", PeerPoint::dispatchRps));

    static Table of(Path... results) {
        List<PeerResults.Export> exports = new ArrayList<>();
        for (Path p : results) {
            try {
                exports.add(PeerResults.read(p));
            } catch (IOException e) {
                throw new UncheckedIOException(e.getMessage(), e);
            }
        }
        StringColumn tool = StringColumn.create("tool");
        StringColumn source = StringColumn.create("source");
        StringColumn mode = StringColumn.create("mode");
        List<DoubleColumn> numbers = NUMBERS.stream().map(c -> DoubleColumn.create(c.name())).toList();
        for (PeerResults.Export e : exports) {
            for (PeerPoint p : e.points()) {
                tool.append(e.tool());
                source.append(e.source().toString());
                mode.append(p.mode());
                for (int i = 0; i < NUMBERS.size(); i++) {
                    numbers.get(i).append(NUMBERS.get(i).value().applyAsDouble(p));
                }
            }
        }
        Table t = Table.create("peers", tool, mode);
        numbers.forEach(t::addColumns);
        return t.addColumns(source);
    }
}
