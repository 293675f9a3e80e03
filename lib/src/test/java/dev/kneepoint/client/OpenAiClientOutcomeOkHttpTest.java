package dev.kneepoint.client;

/** Every scenario of {@link OpenAiClientOutcomeTest} again on the OkHttp transport (the base class runs the default, NIO for http://). */
class OpenAiClientOutcomeOkHttpTest extends OpenAiClientOutcomeTest {
    OpenAiClientOutcomeOkHttpTest() {
        transport = Transport.OKHTTP;
    }
}
