package dev.kneepoint.workload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.request.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The functions a chat request offers the model ({@code tools}, OpenAI's shape) and how it may use them
 * ({@code tool_choice}): {@code auto} (the model decides), {@code required} (it must call one), {@code none}, or the
 * name of one function it must call. {@link #applyTo} makes every request of a workload carry both fields; the
 * answers' tool calls are then measured as generated output (METRICS.md "Tool calls").
 *
 * <pre>{@code
 * Workload agents = ToolUse.builtin().choice("required").applyTo(Workloads.synthetic().build());
 * Workload mine = ToolUse.read(Path.of("tools.json")).applyTo(chat);
 * }</pre>
 *
 * @param tools  the {@code tools} array: each {@code {"type":"function","function":{"name":...,...}}}
 * @param choice {@code auto}, {@code required}, {@code none}, or a function's name
 * @param source where the tools came from: {@code builtin} or the file's path
 */
public record ToolUse(List<Map<String, Object>> tools, String choice, String source) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public ToolUse {
        Objects.requireNonNull(tools, "tools");
        Objects.requireNonNull(choice, "choice");
        Objects.requireNonNull(source, "source");
        tools = List.copyOf(tools);
        List<String> problems = problems(tools);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("tools from " + source + ": " + String.join("; ", problems));
        }
        List<String> names = names(tools);
        if (!List.of("auto", "required", "none").contains(choice) && !names.contains(choice)) {
            throw new IllegalArgumentException("tool choice '" + choice + "' is neither auto, required, none nor one of "
                    + "the functions " + names + ": give one of those");
        }
    }

    /**
     * A built-in set of four functions of everyday agents (weather, web search, calculator, calendar), each with a
     * JSON-schema of its parameters; choice {@code auto}.
     */
    public static ToolUse builtin() {
        return new ToolUse(List.of(
                function("get_weather", "Current weather for a city",
                        Map.of("city", property("string", "City name, e.g. Paris"),
                                "unit", Map.of("type", "string", "enum", List.of("celsius", "fahrenheit"))),
                        List.of("city")),
                function("search_web", "Search the web and return the top results",
                        Map.of("query", property("string", "What to search for"),
                                "max_results", property("integer", "How many results, 1 to 10")),
                        List.of("query")),
                function("calculate", "Evaluate an arithmetic expression",
                        Map.of("expression", property("string", "e.g. (3 + 4) * 12")), List.of("expression")),
                function("create_calendar_event", "Add an event to the user's calendar",
                        Map.of("title", property("string", "Event title"),
                                "start", property("string", "Start time, ISO 8601"),
                                "duration_minutes", property("integer", "Length in minutes")),
                        List.of("title", "start"))), "auto", "builtin");
    }

    /**
     * Tools from a JSON file: an array of tools in OpenAI's shape, or an object with {@code tools} (and optionally
     * {@code tool_choice}, a string). Choice {@code auto} unless the file gives one.
     *
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    public static ToolUse read(Path file) {
        Object root;
        try {
            root = JSON.readValue(Files.readString(file), Object.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("tools file " + file + " is not JSON (" + e.getOriginalMessage()
                    + "): give an array of {\"type\":\"function\",\"function\":{...}} objects");
        } catch (IOException e) {
            throw new IllegalArgumentException("tools file " + file + " cannot be read: " + e.getMessage());
        }
        Object tools = root;
        String choice = "auto";
        if (root instanceof Map<?, ?> m) {
            tools = m.get("tools");
            if (m.get("tool_choice") instanceof String c) {
                choice = c;
            }
        }
        if (!(tools instanceof List<?> list)) {
            throw new IllegalArgumentException("tools file " + file + " must hold an array of tools, or an object "
                    + "with a \"tools\" array");
        }
        return new ToolUse(JSON.convertValue(list, new TypeReference<List<Map<String, Object>>>() { }), choice,
                file.toString());
    }

    /** The same tools with {@code choice}: {@code auto}, {@code required}, {@code none} or a function's name. */
    public ToolUse choice(String choice) {
        return new ToolUse(tools, choice, source);
    }

    /** The functions' names, in order. */
    public List<String> names() {
        return names(tools);
    }

    /** The request fields: {@code tools}, and {@code tool_choice} (a function's name as OpenAI's object). */
    public Map<String, Object> fields() {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("tools", tools);
        f.put("tool_choice", List.of("auto", "required", "none").contains(choice) ? choice
                : Map.of("type", "function", "function", Map.of("name", choice)));
        return f;
    }

    /** For a run manifest: where the tools came from, their names and the choice. */
    public Map<String, Object> describe() {
        return Map.of("source", source, "functions", names(), "tool_choice", choice);
    }

    /**
     * {@code workload} with both fields on every request (a session workload stays one, each turn carrying them);
     * a described workload keeps its description, with {@code tools} added.
     */
    public Workload applyTo(Workload workload) {
        Map<String, Object> fields = fields();
        return EveryRequest.apply(workload, spec -> spec.withExtraBody(fields), "tools", describe());
    }

    private static Map<String, Object> function(String name, String description, Map<String, Object> properties,
                                                List<String> required) {
        return Map.of("type", "function", "function", Map.of("name", name, "description", description,
                "parameters", Map.of("type", "object", "properties", new java.util.TreeMap<>(properties),
                        "required", required)));
    }

    private static Map<String, Object> property(String type, String description) {
        return Map.of("type", type, "description", description);
    }

    private static List<String> names(List<Map<String, Object>> tools) {
        List<String> names = new ArrayList<>();
        for (Map<String, Object> t : tools) {
            if (t.get("function") instanceof Map<?, ?> f && f.get("name") instanceof String n) {
                names.add(n);
            }
        }
        return names;
    }

    private static List<String> problems(List<Map<String, Object>> tools) {
        List<String> problems = new ArrayList<>();
        if (tools.isEmpty()) {
            problems.add("no tools: give at least one {\"type\":\"function\",\"function\":{\"name\":...}}");
        }
        List<String> seen = new ArrayList<>();
        for (int i = 0; i < tools.size(); i++) {
            Map<String, Object> t = tools.get(i);
            if (!"function".equals(t.get("type"))) {
                problems.add("tool " + i + " needs \"type\":\"function\"");
            }
            if (!(t.get("function") instanceof Map<?, ?> f) || !(f.get("name") instanceof String n) || n.isBlank()) {
                problems.add("tool " + i + " needs a \"function\" object with a \"name\"");
            } else if (seen.contains(n)) {
                problems.add("tool " + i + " repeats the name '" + n + "': each function needs its own");
            } else {
                seen.add(n);
            }
        }
        return problems;
    }
}
