package dev.kneepoint.client;

/** Every scenario of {@link StreamingClientTimingTest} again on the OkHttp transport (the base class runs the default, NIO for http://). */
class StreamingClientTimingOkHttpTest extends StreamingClientTimingTest {
    StreamingClientTimingOkHttpTest() {
        transport = Transport.OKHTTP;
    }
}
