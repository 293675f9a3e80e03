package dev.kneepoint.client;

/** Every case of {@link FaultMatrixTest} again on the OkHttp transport (the base class runs NIO for http://). */
class FaultMatrixOkHttpTest extends FaultMatrixTest {
    FaultMatrixOkHttpTest() {
        transport = Transport.OKHTTP;
    }
}
