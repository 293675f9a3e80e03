package dev.kneepoint.workload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.request.RequestSender;
import dev.kneepoint.request.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Answers constrained to JSON (OpenAI's {@code response_format}, which vLLM, SGLang, llama.cpp and Ollama's
 * {@code /v1} serve with guided decoding): {@code json_object} (any JSON object) or {@code json_schema} (an object
 * of a given schema). {@link #applyTo} makes every request ask for it and keep its answer's text;
 * {@link #checking} marks each OK answer that does not parse as such an object ({@code output_invalid} in
 * {@code requests.jsonl}) and drops the text. The check is not a failure: the request was served, its answer is
 * counted (METRICS.md "Structured output"). With a schema the check is that the answer is an object holding the
 * schema's top-level {@code required} properties, not a full JSON-Schema validation.
 *
 * <pre>{@code
 * Workload w = StructuredOutput.jsonSchema(StructuredOutput.BUILTIN_SCHEMA, "builtin").applyTo(chat);
 * }</pre>
 *
 * @param type   {@code json_object} or {@code json_schema}
 * @param schema the JSON schema ({@code json_schema}); null for {@code json_object}
 * @param source where the schema came from: {@code builtin}, the file's path, or {@code none}
 */
public record StructuredOutput(String type, Map<String, Object> schema, String source) {
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    /** A small schema of everyday extraction: an answer, a confidence and a list of keywords. */
    public static final Map<String, Object> BUILTIN_SCHEMA = Map.of("type", "object",
            "properties", Map.of("answer", Map.of("type", "string"),
                    "confidence", Map.of("type", "number"),
                    "keywords", Map.of("type", "array", "items", Map.of("type", "string"))),
            "required", List.of("answer"));

    public StructuredOutput {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(source, "source");
        if (!type.equals("json_object") && !type.equals("json_schema")) {
            throw new IllegalArgumentException("structured output is json_object or json_schema, got '" + type + "'");
        }
        if (type.equals("json_schema") && (schema == null || !"object".equals(schema.get("type")))) {
            throw new IllegalArgumentException("the schema from " + source + " must describe an object "
                    + "(\"type\": \"object\"): answers are checked as JSON objects");
        }
        schema = schema == null ? null : Map.copyOf(schema);
    }

    /** Any JSON object ({@code {"type":"json_object"}}). */
    public static StructuredOutput jsonObject() {
        return new StructuredOutput("json_object", null, "none");
    }

    /** An object of {@code schema} ({@code {"type":"json_schema","json_schema":{"name","schema","strict":true}}}). */
    public static StructuredOutput jsonSchema(Map<String, Object> schema, String source) {
        return new StructuredOutput("json_schema", schema, source);
    }

    /**
     * What the command line's {@code --response-format} says: {@code json}, {@code json-schema} (the built-in schema)
     * or {@code json-schema:FILE}.
     *
     * @throws IllegalArgumentException naming the valid forms, or the file's problem
     */
    public static StructuredOutput parse(String value) {
        if (value.equals("json")) {
            return jsonObject();
        }
        if (value.equals("json-schema")) {
            return jsonSchema(BUILTIN_SCHEMA, "builtin");
        }
        if (value.startsWith("json-schema:")) {
            Path file = Path.of(value.substring("json-schema:".length()));
            try {
                return jsonSchema(JSON.readValue(Files.readString(file), new TypeReference<>() { }), file.toString());
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read the JSON schema " + file + ": " + e.getMessage());
            }
        }
        throw new IllegalArgumentException("response format '" + value + "' is none of json, json-schema, "
                + "json-schema:FILE");
    }

    /** The request's {@code response_format} field. */
    public Map<String, Object> responseFormat() {
        if (schema == null) {
            return Map.of("type", "json_object");
        }
        return Map.of("type", "json_schema", "json_schema", Map.of("name", "kneepoint", "schema", schema,
                "strict", true));
    }

    /** For a run manifest: the type, where the schema came from and its required properties. */
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", type);
        m.put("schema", source);
        m.put("required", required());
        return m;
    }

    /** {@code workload} with {@code response_format} on every request, each keeping its answer's text to check. */
    public Workload applyTo(Workload workload) {
        Map<String, Object> fields = Map.of("response_format", responseFormat());
        return EveryRequest.apply(workload, spec -> spec.withExtraBody(fields).withKeepResponseText(true),
                "structured_output", describe());
    }

    /**
     * {@code sender} checking each OK answer ({@link #valid}): one that is not a JSON object holding the required
     * properties gets {@code outputInvalid}; the answer's text is dropped either way.
     */
    public RequestSender checking(RequestSender sender) {
        return RequestSender.wrapping(sender, (prepared, context) -> cancellation -> checked(prepared.send(cancellation)));
    }

    private RequestRecord checked(RequestRecord r) {
        RequestRecord.Builder b = r.toBuilder();
        b.outputInvalid = r.isOk() && !valid(r.response().responseText());
        return b.build().withoutKeptAnswer();
    }

    /** True when {@code text} is one JSON object (whitespace around it allowed) holding the required properties. */
    public boolean valid(String text) {
        if (text == null || text.isBlank()) {
            return false;
        }
        JsonNode n;
        try {
            n = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            return false;
        }
        if (n == null || !n.isObject()) {
            return false;
        }
        for (String p : required()) {
            if (!n.has(p)) {
                return false;
            }
        }
        return true;
    }

    private List<String> required() {
        return schema != null && schema.get("required") instanceof List<?> l
                ? l.stream().map(String::valueOf).toList() : List.of();
    }
}
