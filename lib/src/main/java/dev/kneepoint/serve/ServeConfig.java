package dev.kneepoint.serve;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One configuration of a server-config sweep: the value of each swept parameter, and the name its run takes.
 *
 * @param name   {@code parallel-1}, or {@code parallel-2-ctx-4096} for several parameters: each name and value,
 *               joined by '-', any character but letters, digits, '.' and '-' made '-'
 * @param params the parameters' values, in the order the parameters were given
 */
public record ServeConfig(String name, Map<String, String> params) {
    public ServeConfig {
        params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
    }

    /** The configuration of these values, named after them. */
    public static ServeConfig of(Map<String, String> params) {
        String name = params.entrySet().stream().map(e -> e.getKey() + "-" + e.getValue())
                .map(s -> s.replaceAll("[^A-Za-z0-9.-]+", "-")).collect(Collectors.joining("-"));
        return new ServeConfig(name, params);
    }
}
