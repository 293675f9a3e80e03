package dev.kneepoint.client;

/** Every scenario of {@link ToolCallStreamTest} again on the OkHttp transport. */
class ToolCallStreamOkHttpTest extends ToolCallStreamTest {
    ToolCallStreamOkHttpTest() {
        transport = Transport.OKHTTP;
    }
}
