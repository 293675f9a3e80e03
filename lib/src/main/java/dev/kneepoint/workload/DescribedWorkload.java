package dev.kneepoint.workload;

import dev.kneepoint.request.Workload;
import java.util.Map;

/** A {@link Workload} that can describe itself for a run manifest (kind, lengths, seed, salt, source). */
public interface DescribedWorkload extends Workload {
    /** A JSON-friendly description: strings, numbers, booleans, lists and maps only. */
    Map<String, Object> describe();
}
