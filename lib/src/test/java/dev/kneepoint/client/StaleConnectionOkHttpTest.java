package dev.kneepoint.client;

/** Every case of {@link StaleConnectionTest} again on the OkHttp transport. */
class StaleConnectionOkHttpTest extends StaleConnectionTest {
    StaleConnectionOkHttpTest() {
        transport = Transport.OKHTTP;
    }
}
