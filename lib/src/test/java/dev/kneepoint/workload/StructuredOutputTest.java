package dev.kneepoint.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kneepoint.request.RequestSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What asks for JSON answers, and what counts as one. */
class StructuredOutputTest {
    @TempDir
    Path dir;

    @Test
    void anAnswerIsValidWhenItIsOneObjectWithTheRequiredProperties() {
        StructuredOutput any = StructuredOutput.jsonObject();
        assertThat(any.valid("{\"a\": 1}")).isTrue();
        assertThat(any.valid("  {\"a\": [1, 2]}\n ")).isTrue(); // whitespace around it, as guided decoding pads
        assertThat(any.valid("{\"a\": \"cut mid-str")).isFalse(); // what max_tokens leaves
        assertThat(any.valid("{\"a\": 1} and more")).isFalse();
        assertThat(any.valid("[1, 2]")).isFalse();
        assertThat(any.valid("")).isFalse();
        assertThat(any.valid(null)).isFalse();
        StructuredOutput schema = StructuredOutput.parse("json-schema");
        assertThat(schema.valid("{\"answer\": \"yes\", \"confidence\": 0.9}")).isTrue();
        assertThat(schema.valid("{\"confidence\": 0.9}")).as("the required answer is missing").isFalse();
    }

    @Test
    void theRequestAsksForItAndKeepsTheTextToCheck() {
        RequestSpec spec = StructuredOutput.jsonObject().applyTo(i -> RequestSpec.of("hi", 8)).next(0);
        assertThat(spec.extraBody()).containsEntry("response_format", Map.of("type", "json_object"));
        assertThat(spec.keepResponseText()).isTrue();
        Object format = StructuredOutput.parse("json-schema").responseFormat();
        assertThat(format.toString()).contains("type=json_schema").contains("name=kneepoint").contains("strict=true");
    }

    @Test
    void theCommandLinesFormsAndTheirErrors() throws Exception {
        Path schema = Files.writeString(dir.resolve("s.json"), "{\"type\":\"object\",\"required\":[\"city\"]}");
        StructuredOutput s = StructuredOutput.parse("json-schema:" + schema);
        assertThat(s.describe()).containsEntry("schema", schema.toString()).containsEntry("required",
                java.util.List.of("city"));
        assertThatThrownBy(() -> StructuredOutput.parse("xml")).hasMessageContaining("response format 'xml' is none of "
                + "json, json-schema, json-schema:FILE");
        assertThatThrownBy(() -> StructuredOutput.parse("json-schema:" + dir.resolve("missing.json")))
                .hasMessageContaining("cannot read the JSON schema");
        Path array = Files.writeString(dir.resolve("a.json"), "{\"type\":\"array\"}");
        assertThatThrownBy(() -> StructuredOutput.parse("json-schema:" + array))
                .hasMessageContaining("must describe an object");
    }
}
