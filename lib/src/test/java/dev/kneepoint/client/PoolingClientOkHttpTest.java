package dev.kneepoint.client;

/** Every scenario of {@link PoolingClientTest} again on the OkHttp transport. */
class PoolingClientOkHttpTest extends PoolingClientTest {
    PoolingClientOkHttpTest() {
        transport = Transport.OKHTTP;
    }
}
