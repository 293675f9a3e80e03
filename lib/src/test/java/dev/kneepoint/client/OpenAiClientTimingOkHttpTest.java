package dev.kneepoint.client;

/** Every scenario of {@link OpenAiClientTimingTest} again on the OkHttp transport (the base class runs the default, NIO for http://). */
class OpenAiClientTimingOkHttpTest extends OpenAiClientTimingTest {
    OpenAiClientTimingOkHttpTest() {
        transport = Transport.OKHTTP;
    }
}
