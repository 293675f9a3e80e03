package dev.kneepoint.serve;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code --serve} command line: split into arguments as a shell would for simple quoting (no shell runs it),
 * with {@code {name}} placeholders filled per configuration. Splitting: blanks separate arguments; inside
 * {@code '...'} every character is literal; inside {@code "..."} a backslash escapes {@code "} and {@code \};
 * outside quotes a backslash escapes the next character. No variables, globs, pipes or redirections. Placeholders
 * are filled after splitting, so a value never splits an argument.
 */
public final class ServeCommandLine {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z][A-Za-z0-9_-]*)}");
    private final List<String> args;

    private ServeCommandLine(List<String> args) {
        this.args = List.copyOf(args);
    }

    /**
     * {@code text} split into arguments, its placeholders checked against {@code params}: each must be {@code {port}}
     * or a swept parameter, {@code {port}} must be there, and each parameter must be used.
     *
     * @throws IllegalArgumentException naming every problem and its fix
     */
    public static ServeCommandLine parse(String text, List<ServeParam> params) {
        List<String> args = split(text);
        if (args.isEmpty()) {
            throw new IllegalArgumentException("--serve is empty: give the server's command line, e.g. --serve "
                    + "'llama-server -m model.gguf --parallel {parallel} --port {port}'");
        }
        Set<String> used = new LinkedHashSet<>();
        for (String a : args) {
            Matcher m = PLACEHOLDER.matcher(a);
            while (m.find()) {
                used.add(m.group(1));
            }
        }
        List<String> problems = new ArrayList<>();
        Set<String> swept = new LinkedHashSet<>();
        params.forEach(p -> swept.add(p.name()));
        if (!used.contains(ServeParam.PORT)) {
            problems.add("--serve has no {port}: put it where the server takes its port (e.g. --port {port}); the "
                    + "sweep picks a free 127.0.0.1 port per configuration and points the run at it");
        }
        for (String u : used) {
            if (!u.equals(ServeParam.PORT) && !swept.contains(u)) {
                problems.add("--serve uses {" + u + "}, but no --param gives its values: add --param " + u
                        + "=V1,V2,... or remove {" + u + "}");
            }
        }
        for (String s : swept) {
            if (!used.contains(s)) {
                problems.add("--param " + s + " is not used in --serve: put {" + s + "} where the server takes it, or "
                        + "remove the --param");
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("\n", problems));
        }
        return new ServeCommandLine(args);
    }

    /** The arguments with every placeholder replaced by its value ({@code values} has one for each). */
    public List<String> expand(Map<String, String> values) {
        List<String> out = new ArrayList<>(args.size());
        for (String a : args) {
            Matcher m = PLACEHOLDER.matcher(a);
            StringBuilder b = new StringBuilder();
            while (m.find()) {
                String v = values.get(m.group(1));
                if (v == null) {
                    throw new IllegalArgumentException("no value for {" + m.group(1) + "} in --serve");
                }
                m.appendReplacement(b, Matcher.quoteReplacement(v));
            }
            m.appendTail(b);
            out.add(b.toString());
        }
        return out;
    }

    /** The arguments as split, placeholders unfilled. */
    public List<String> args() {
        return args;
    }

    /**
     * {@code text} split as described above.
     *
     * @throws IllegalArgumentException on an unclosed quote or a trailing backslash
     */
    static List<String> split(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean inArg = false;
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote == '\'') {
                if (c == '\'') {
                    quote = 0;
                } else {
                    cur.append(c);
                }
            } else if (quote == '"') {
                if (c == '"') {
                    quote = 0;
                } else if (c == '\\' && i + 1 < text.length() && (text.charAt(i + 1) == '"' || text.charAt(i + 1) == '\\')) {
                    cur.append(text.charAt(++i));
                } else {
                    cur.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inArg = true;
            } else if (c == '\\') {
                if (i + 1 == text.length()) {
                    throw new IllegalArgumentException("--serve ends in a backslash: remove it or escape it as \\\\");
                }
                cur.append(text.charAt(++i));
                inArg = true;
            } else if (Character.isWhitespace(c)) {
                if (inArg) {
                    out.add(cur.toString());
                    cur.setLength(0);
                    inArg = false;
                }
            } else {
                cur.append(c);
                inArg = true;
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("--serve has an unclosed " + quote + " quote: close it");
        }
        if (inArg) {
            out.add(cur.toString());
        }
        return out;
    }
}
