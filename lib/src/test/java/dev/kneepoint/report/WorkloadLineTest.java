package dev.kneepoint.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The workload line of a report's header, from manifests as the sweep writes them. */
class WorkloadLineTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aClosedLoopSaysItsApiModelLengthsAndHowUsersStarted() throws Exception {
        String manifest = """
                {"config": {"target": {"api": "chat", "stream": true, "model": "sim-gpu-8b"}, "mode": "closed",
                 "ramp_up_s": 0.5, "workload": {"kind": "synthetic", "input_tokens": 256, "output_tokens": 64,
                 "ignore_eos": true}, "prompt_calibration": "off: synthetic words, one token each on the embedded simulator"}}
                """;
        assertThat(WorkloadLine.of(JSON.readTree(manifest))).isEqualTo("Workload: chat API, streamed, model sim-gpu-8b; "
                + "synthetic prompts of 256 words and answers of 64 tokens (ignore_eos); closed loop, users started over "
                + "0.50 s.");
        String lockStep = manifest.replace("\"ramp_up_s\": 0.5", "\"ramp_up_s\": 0.0")
                .replace("\"off: synthetic words, one token each on the embedded simulator\"", "\"calibrated: 1.31 tokens/word\"");
        assertThat(WorkloadLine.of(JSON.readTree(lockStep))).contains("synthetic prompts of 256 tokens")
                .contains("users started in lock-step (--ramp-up 0s");
    }

    @Test
    void lengthsAreNumbersOrDistributionsAsTheManifestHasThem() throws Exception {
        // A calibrated synthetic workload describes itself: fixed lengths as fixed(N), varying ones by their law.
        String manifest = """
                {"config": {"mode": "open", "workload": {"kind": "synthetic", "input_tokens": "fixed(512)",
                 "output_tokens": "uniform(32..96)"}, "prompt_calibration": "calibrated: 1.31 tokens/word"}}
                """;
        assertThat(WorkloadLine.of(JSON.readTree(manifest)))
                .isEqualTo("Workload: synthetic prompts of 512 tokens and answers of uniform(32..96) tokens; open loop.");
        // Calibration left to itself against a server without a tokenizer: words, and the header says so.
        String estimate = manifest.replace("\"calibrated: 1.31 tokens/word\"",
                "\"estimate: synthetic words, no tokenizer answered; ESTIMATE (4 chars/token): ...\"");
        assertThat(WorkloadLine.of(JSON.readTree(estimate))).contains("synthetic prompts of 512 words (token counts "
                + "estimated: the server has no tokenizer endpoint)");
    }

    @Test
    void aSharedPrefixAndADatasetAreNamed() throws Exception {
        String manifest = """
                {"config": {"mode": "open", "workload": {"kind": "shared_prefix", "input_tokens": 512, "output_tokens": 8,
                 "prefix_tokens": 256, "prefix_groups": 4}, "prompt_calibration": "exact: server: /tokenize"}}
                """;
        assertThat(WorkloadLine.of(JSON.readTree(manifest))).isEqualTo("Workload: synthetic prompts of 512 tokens, each "
                + "sharing a prefix of 256 tokens with its group (4 groups) and answers of 8 tokens; open loop.");
        String dataset = """
                {"config": {"workload": {"kind": "dataset", "file": "d.jsonl", "records": 3, "repeats_salted": true}}}
                """;
        assertThat(WorkloadLine.of(JSON.readTree(dataset)))
                .isEqualTo("Workload: requests from the dataset d.jsonl (3 records, repeats salted).");
    }

    @Test
    void toolsOfferedAreNamedWithTheirChoice() throws Exception {
        String manifest = """
                {"config": {"mode": "open", "workload": {"kind": "synthetic", "input_tokens": 64, "output_tokens": 8},
                 "tools": {"source": "builtin", "functions": ["a", "b"], "tool_choice": "required"}}}
                """;
        assertThat(WorkloadLine.of(JSON.readTree(manifest))).isEqualTo("Workload: synthetic prompts of 64 words and "
                + "answers of 8 tokens; offering 2 tools (builtin, tool_choice required; their definitions are part of "
                + "every prompt); open loop.");
    }

    @Test
    void theServerLineSaysWhatTheServerSaidAndTheUsersLabels() throws Exception {
        String manifest = """
                {"config": {"server": {"engine": "llamacpp", "version": "b6000-abc", "model": "/m/smollm2.gguf",
                 "context_length": 4096, "parallel": {"slots": 2}, "answered": ["/props"]},
                 "labels": {"config": "parallel-2", "gpu": "none"}}}
                """;
        assertThat(WorkloadLine.server(JSON.readTree(manifest))).isEqualTo("Server: llamacpp b6000-abc; model "
                + "/m/smollm2.gguf; context 4096 tokens; slots 2; labels config=parallel-2, gpu=none.");
        assertThat(WorkloadLine.server(JSON.readTree("{\"config\": {\"server\": {\"engine\": \"unknown\"}}}")))
                .contains("unknown engine (it answered none of the identity endpoints)");
        assertThat(WorkloadLine.server(JSON.readTree("{\"config\": {}}"))).isEmpty();
    }

    @Test
    void anOpenLoopOrAnOldManifestSaysWhatItKnows() throws Exception {
        assertThat(WorkloadLine.of(JSON.readTree("{\"config\": {\"mode\": \"open\", \"workload\": {\"kind\": \"trace\"}}}")))
                .isEqualTo("Workload: trace workload; open loop.");
        assertThat(WorkloadLine.of(JSON.readTree("{\"run_id\": \"x\"}"))).isEmpty();
        assertThat(WorkloadLine.of(null)).isEmpty();
    }
}
