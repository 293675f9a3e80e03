package dev.kneepoint.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code /v1/chat/completions} and {@code /v1/completions}: validates, decides the request's fault,
 * submits the sequence to the engine, then writes its outputs at their scheduled times (streaming: the
 * engine thread writes them, see {@link EmitStream}; otherwise this thread waits for the last one).
 *
 * <p>Streaming, in OpenAI's shape: headers at once; with the first token the role chunk (chat),
 * then one content event per engine step of this request, then a finish chunk with an empty delta
 * and {@code finish_reason}, the usage chunk with {@code "choices":[]} (if {@code include_usage}),
 * and {@code data: [DONE]}. With {@code continuous_usage_stats} every chunk carries cumulative usage. An answer
 * that calls a tool ({@link ToolChoice}) streams its tokens as the call's argument fragments instead, the first
 * chunk naming the function, and finishes with {@code tool_calls}.
 */
final class CompletionHandler {
    private static final String JSON = "application/json";
    private final SimConfig config;
    private final Engine engine;
    private final SimMetrics metrics;
    private final FaultPlanner faults;
    private final AtomicLong counter = new AtomicLong();

    CompletionHandler(SimConfig config, Engine engine, SimMetrics metrics, FaultPlanner faults) {
        this.config = config;
        this.engine = engine;
        this.metrics = metrics;
        this.faults = faults;
    }

    void handle(boolean chat, HttpRequestData req, SimExchange ex) throws IOException {
        metrics.requestsReceived.increment();
        long index = counter.getAndIncrement();
        SplittableRandom random = new SplittableRandom(Sequence.mix(config.seed() ^ Sequence.mix(index + 1)));
        CompletionRequest cr;
        FaultPlanner.Decision fault;
        try {
            cr = CompletionRequest.parse(chat, JsonText.MAPPER.readTree(req.body()));
            fault = faults.decide(req.header(FaultPlanner.HEADER), random, System.nanoTime());
        } catch (IllegalArgumentException | JsonProcessingException e) {
            error(ex, 400, "BadRequestError", e.getMessage());
            return;
        }
        if (cr.model() != null && !config.serves(cr.model())) {
            error(ex, 404, "NotFoundError", "The model `" + cr.model() + "` does not exist.");
            return;
        }
        if (refusedByFault(fault, metrics, ex)) {
            return;
        }
        int prompt = cr.promptIds().length;
        int maxLen = config.maxModelLen();
        int maxTokens = cr.maxTokens() == null ? maxLen - prompt : cr.maxTokens();
        if (prompt < 1 || prompt + maxTokens > maxLen) {
            error(ex, 400, "BadRequestError", "This model's maximum context length is " + maxLen + " tokens. However,"
                    + " you requested " + (prompt + Math.max(maxTokens, 0)) + " tokens (" + prompt
                    + " in the messages, " + maxTokens + " in the completion).");
            return;
        }
        int natural = cr.ignoreEos() ? maxTokens : Math.max(config.outputLength().sample(random), cr.minTokens());
        int target = Math.min(natural, maxTokens);
        String function = cr.tools().call(random);
        String finishReason = target >= maxTokens ? "length" : function != null ? "tool_calls" : "stop";
        if (!admitted(fault, config, engine, metrics, ex)) {
            return;
        }
        TokenSink sink = cr.stream() ? new EmitStream(ex, metrics) : new StreamSink();
        Sequence seq = new Sequence(index, cr.promptIds(), config.blockSize(), target, sink);
        Response r = new Response(cr, seq, sink, fault, finishReason, random.nextLong(), function,
                new Sse(chat, (chat ? "chatcmpl-" : "cmpl-") + Long.toHexString(Sequence.mix(config.seed() + index + 1)),
                        System.currentTimeMillis() / 1000, cr.model() != null ? cr.model() : config.modelName()));
        if (sink instanceof EmitStream es) {
            es.bind(r);
        }
        engine.submit(seq);
        try {
            if (sink instanceof EmitStream es) {
                es.run(engine);
            } else {
                complete(r, (StreamSink) sink, ex);
            }
        } catch (IOException e) {
            engine.abort(seq);
            throw e;
        } catch (InterruptedException e) {
            engine.abort(seq);
            ex.markBroken();
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Everything a writer needs about one accepted request; {@code function} is the tool the answer calls (its
     * tokens are the call's arguments), or null for a text answer.
     */
    record Response(CompletionRequest request, Sequence seq, TokenSink sink, FaultPlanner.Decision fault,
                    String finishReason, long textSeed, String function, Sse sse) {
        int promptTokens() {
            return seq.promptTokens;
        }

        /** The id of the answer's tool call. */
        String callId() {
            return "call_" + Long.toHexString(textSeed);
        }
    }

    private void complete(Response r, StreamSink sink, SimExchange ex) throws IOException, InterruptedException {
        List<StreamSink.Out> batch = new ArrayList<>();
        int generated = 0;
        boolean finished = false;
        while (!finished) {
            sink.takeAll(batch);
            for (StreamSink.Out o : batch) {
                generated = o.generated();
                finished |= o.finished();
            }
        }
        metrics.tokensWritten.add(generated);
        if (answeredFault(r.fault(), ex)) {
            return;
        }
        StringBuilder words = new StringBuilder();
        Sse.appendWords(words, r.textSeed(), 0, generated);
        List<String> json = r.request().jsonKeys();
        String text = json == null ? words.toString() : JsonText.escape(Sse.jsonOpen(json) + words
                + (r.finishReason().equals("stop") ? Sse.JSON_CLOSE : ""));
        boolean chat = r.request().chat();
        String message = r.function() == null ? "\"content\":\"" + text + "\""
                : "\"content\":null,\"tool_calls\":[{\"id\":\"" + r.callId() + "\",\"type\":\"function\",\"function\":"
                + "{\"name\":\"" + JsonText.escape(r.function()) + "\",\"arguments\":\""
                + JsonText.escape(Sse.arguments(r.textSeed(), generated)) + "\"}}]";
        String body = "{\"id\":\"" + (chat ? "chatcmpl-" : "cmpl-") + Long.toHexString(Sequence.mix(config.seed() + r.seq().id + 1))
                + "\",\"object\":\"" + (chat ? "chat.completion" : "text_completion") + "\",\"created\":"
                + System.currentTimeMillis() / 1000 + ",\"model\":\"" + JsonText.escape(r.sse().model())
                + "\",\"choices\":[{\"index\":0," + (chat ? "\"message\":{\"role\":\"assistant\","
                + message + "}" : "\"text\":\"" + text + "\"") + ",\"logprobs\":null,\"finish_reason\":\"" + r.finishReason()
                + "\"}],\"usage\":" + Sse.usage(r.promptTokens(), generated, r.seq().cachedTokens) + "}";
        metrics.finished(r.finishReason());
        ex.send(200, JSON, body.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Plays a whole (not streamed) answer's fault once its outputs are ready: stalls and a slow first byte delay
     * it, a reset or a missing end drops the connection, an error in the stream is a 500, a malformed event a
     * truncated JSON body. Returns whether the fault answered (the caller sends nothing more).
     */
    /** Answers the request's HTTP-status fault (429, 503), when it has one; true when it did (the request ends). */
    static boolean refusedByFault(FaultPlanner.Decision fault, SimMetrics metrics, SimExchange ex) throws IOException {
        FaultKind kind = fault.kind();
        if (kind == null || kind.httpStatus() == 0) {
            return false;
        }
        metrics.fault(kind);
        error(ex, kind.httpStatus(), kind == FaultKind.HTTP_429 ? "RateLimitError" : "ServiceUnavailableError",
                "simulated fault " + kind.wireName());
        return true;
    }

    /**
     * Admits a valid request to the engine's queue: refused with 503 when {@code maxWaiting} requests already wait;
     * else its fault (if any) is counted and an engine stall applied. False when it was refused (answered).
     */
    static boolean admitted(FaultPlanner.Decision fault, SimConfig config, Engine engine, SimMetrics metrics,
                            SimExchange ex) throws IOException {
        if (config.maxWaiting() > 0 && engine.waitingApprox() >= config.maxWaiting()) {
            metrics.fault(FaultKind.QUEUE_FULL);
            error(ex, 503, "ServiceUnavailableError", "waiting queue is full (" + config.maxWaiting() + " requests)");
            return false;
        }
        FaultKind kind = fault.kind();
        if (kind != null) {
            metrics.fault(kind);
            if (kind == FaultKind.ENGINE_STALL) {
                engine.stall(fault.durationNanos());
            }
        }
        return true;
    }

    static boolean answeredFault(FaultPlanner.Decision fault, SimExchange ex) throws IOException, InterruptedException {
        FaultKind kind = fault.kind();
        if (kind == FaultKind.STREAM_STALL || kind == FaultKind.SLOW_FIRST_BYTE) {
            Thread.sleep(fault.durationNanos() / 1_000_000);
        }
        if (kind == FaultKind.CONNECTION_RESET || kind == FaultKind.NO_DONE) {
            ex.reset();
            return true;
        }
        if (kind == FaultKind.ERROR_IN_STREAM) {
            error(ex, 500, "InternalServerError", "simulated fault error_in_stream");
            return true;
        }
        if (kind == FaultKind.MALFORMED_EVENT) {
            ex.send(200, JSON, "{\"id\":\"broken\",\"choices\":[{".getBytes(StandardCharsets.UTF_8));
            return true;
        }
        return false;
    }

    static void error(SimExchange ex, int status, String type, String message) throws IOException {
        ex.send(status, JSON, Sse.errorJson(message, type, status).getBytes(StandardCharsets.UTF_8));
    }
}
