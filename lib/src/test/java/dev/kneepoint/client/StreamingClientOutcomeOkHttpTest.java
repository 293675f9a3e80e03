package dev.kneepoint.client;

/** Every scenario of {@link StreamingClientOutcomeTest} again on the OkHttp transport (the base class runs the default, NIO for http://). */
class StreamingClientOutcomeOkHttpTest extends StreamingClientOutcomeTest {
    StreamingClientOutcomeOkHttpTest() {
        transport = Transport.OKHTTP;
    }
}
