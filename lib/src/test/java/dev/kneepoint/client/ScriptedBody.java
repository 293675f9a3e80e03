package dev.kneepoint.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponseBody;
import okio.BufferedSink;

/**
 * A chunked ({@code Transfer-Encoding: chunked}, framed here because MockWebServer writes a
 * length-less body raw) response body written step by step: text parts are written as one chunk
 * and flushed at once, pauses wait (ending early when {@link #release()} is called so that tests
 * shut down fast), and {@link #fail()} stops without the terminating chunk so that the connection
 * shutdown that follows cuts the body mid-way.
 */
final class ScriptedBody implements MockResponseBody {
    private final List<Object> steps = new ArrayList<>();
    private final CountDownLatch released = new CountDownLatch(1);

    private record Pause(long millis) {
    }

    private record Fail() {
    }

    /** Writes and flushes {@code text}. */
    ScriptedBody write(String text) {
        steps.add(text);
        return this;
    }

    /** Writes one SSE event {@code data: json}. */
    ScriptedBody event(String json) {
        return write("data: " + json + "\n\n");
    }

    ScriptedBody pause(long millis) {
        steps.add(new Pause(millis));
        return this;
    }

    ScriptedBody fail() {
        steps.add(new Fail());
        return this;
    }

    /** Ends every pause now (test teardown). */
    void release() {
        released.countDown();
    }

    @Override
    public long getContentLength() {
        return -1;
    }

    @Override
    public void writeTo(BufferedSink sink) throws IOException {
        for (Object s : steps) {
            switch (s) {
                case String text -> {
                    okio.ByteString bytes = okio.ByteString.encodeUtf8(text);
                    sink.writeUtf8(Integer.toHexString(bytes.size())).writeUtf8("\r\n").write(bytes).writeUtf8("\r\n");
                    sink.flush();
                }
                case Pause p -> {
                    try {
                        released.await(p.millis(), TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IOException("interrupted", e);
                    }
                }
                case Fail f -> {
                    sink.flush();
                    return;
                }
                default -> throw new IllegalStateException();
            }
        }
        sink.writeUtf8("0\r\n");
        sink.flush();
    }

    static String content(String text) {
        return "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + text + "\"},\"finish_reason\":null}]}";
    }

    static String role() {
        return "{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}";
    }

    static String finish(String text) {
        return "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + text + "\"},\"finish_reason\":\"stop\"}]}";
    }

    static String usage(int prompt, int completion) {
        return "{\"choices\":[],\"usage\":{\"prompt_tokens\":" + prompt + ",\"completion_tokens\":" + completion
                + ",\"total_tokens\":" + (prompt + completion) + "}}";
    }
}
