package dev.kneepoint.serve;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One swept server setting: a name used as {@code {name}} in the serve command line, and its values in the order
 * given ({@code --param parallel=1,2,4}).
 *
 * @param name   the placeholder's name
 * @param values its values, at least one, none empty
 */
public record ServeParam(String name, List<String> values) {
    /** The placeholder the sweep fills itself, with a free 127.0.0.1 port per configuration. */
    public static final String PORT = "port";
    private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_-]*");

    public ServeParam {
        values = List.copyOf(values);
    }

    /**
     * {@code NAME=V1,V2,...} as typed after {@code --param}.
     *
     * @throws IllegalArgumentException naming the problem and the fix
     */
    public static ServeParam parse(String text) {
        int eq = text.indexOf('=');
        String name = eq < 0 ? text.strip() : text.substring(0, eq).strip();
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("--param takes NAME=V1,V2,... with a name of letters, digits, '_' or "
                    + "'-', e.g. --param parallel=1,2,4; got '" + text + "'");
        }
        if (name.equals(PORT)) {
            throw new IllegalArgumentException("--param " + PORT + ": {" + PORT + "} is filled by the sweep itself (a "
                    + "free 127.0.0.1 port per configuration); sweep another setting");
        }
        List<String> values = new ArrayList<>();
        if (eq >= 0) {
            for (String v : text.substring(eq + 1).split(",", -1)) {
                values.add(v.strip());
            }
        }
        if (values.isEmpty() || values.stream().allMatch(String::isEmpty)) {
            throw new IllegalArgumentException("--param " + name + " has no values: list them after '=', e.g. --param "
                    + name + "=1,2,4");
        }
        if (values.contains("")) {
            throw new IllegalArgumentException("--param " + name + " has an empty value in '" + text + "': remove the "
                    + "extra comma");
        }
        if (values.stream().distinct().count() < values.size()) {
            throw new IllegalArgumentException("--param " + name + " repeats a value in '" + text + "': give each once");
        }
        return new ServeParam(name, values);
    }

    /**
     * Every combination of the values of {@code params} (their cartesian product), the first parameter varying
     * slowest, each parameter's values in the order given.
     *
     * @throws IllegalArgumentException when two parameters share a name, or none is given
     */
    public static List<ServeConfig> product(List<ServeParam> params) {
        if (params.isEmpty()) {
            throw new IllegalArgumentException("no --param given: name the setting to sweep and its values, e.g. "
                    + "--param parallel=1,2,4, and use it as {parallel} in --serve");
        }
        Map<String, ServeParam> byName = new LinkedHashMap<>();
        for (ServeParam p : params) {
            if (byName.put(p.name(), p) != null) {
                throw new IllegalArgumentException("--param " + p.name() + " is given twice: list all its values in "
                        + "one --param " + p.name() + "=V1,V2,...");
            }
        }
        List<Map<String, String>> combos = List.of(new LinkedHashMap<>());
        for (ServeParam p : params) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> c : combos) {
                for (String v : p.values()) {
                    Map<String, String> m = new LinkedHashMap<>(c);
                    m.put(p.name(), v);
                    next.add(m);
                }
            }
            combos = next;
        }
        return combos.stream().map(ServeConfig::of).toList();
    }
}
