package dev.kneepoint.client;

/** Every scenario of {@link TypedEventApiTest} again on the OkHttp transport. */
class TypedEventApiOkHttpTest extends TypedEventApiTest {
    TypedEventApiOkHttpTest() {
        transport = Transport.OKHTTP;
    }
}
