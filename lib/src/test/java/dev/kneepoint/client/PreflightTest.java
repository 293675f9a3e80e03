package dev.kneepoint.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import java.io.IOException;
import java.net.ServerSocket;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/** The check before the first step: what passes, and that each way of failing names its cause and fix. */
class PreflightTest {

    private static TargetConfig target(String url, String model) {
        return TargetConfig.builder().baseUrl(url).model(model).build();
    }

    @Test
    void aServingSimulatorPassesAndListsItsModel() {
        try (Simulator sim = Simulator.start(SimConfig.preset("fast"))) {
            Preflight.Result r = Preflight.check(target(sim.url(), "sim-fast"));
            assertThat(r.servedModels()).containsExactly("sim-fast");
            assertThat(r.requestMs()).isPositive();
        }
    }

    @Test
    void nothingListeningIsConnectionRefusedNamingTheAddress() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        int closed = port;
        assertThatThrownBy(() -> Preflight.check(target("http://127.0.0.1:" + closed, "m")))
                .isInstanceOf(PreflightException.class).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("preflight failed: cannot connect to 127.0.0.1:" + closed
                        + " (connection refused or unreachable)")
                .hasMessageContaining("Check --url").hasMessageContaining("--no-preflight");
    }

    private static MockWebServer server(int modelsCode, String modelsBody, int completionCode, String completionBody)
            throws IOException {
        MockWebServer server = new MockWebServer();
        server.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest r) {
                boolean models = r.getUrl().encodedPath().startsWith("/v1/models");
                return new MockResponse.Builder().code(models ? modelsCode : completionCode)
                        .addHeader("Content-Type", "application/json")
                        .body(models ? modelsBody : completionBody).build();
            }
        });
        server.start();
        return server;
    }

    @Test
    void aRefusedKeySaysHowToGiveOne() throws IOException {
        try (MockWebServer s = server(401, "{\"error\":{\"message\":\"invalid api key\"}}", 401, "")) {
            assertThatThrownBy(() -> Preflight.check(target(s.url("/").toString(), "m")))
                    .hasMessageContaining("the server refused the request (HTTP 401")
                    .hasMessageContaining("no API key was given")
                    .hasMessageContaining("--api-key-env NAME or --api-key-file FILE");
        }
    }

    @Test
    void anUnknownModelListsTheServedOnes() throws IOException {
        String list = "{\"object\":\"list\",\"data\":[{\"id\":\"llama-3-8b\"},{\"id\":\"qwen-7b\"}]}";
        String error = "{\"error\":{\"message\":\"The model `gpt-4` does not exist.\",\"code\":404}}";
        try (MockWebServer s = server(200, list, 404, error)) {
            assertThatThrownBy(() -> Preflight.check(target(s.url("/").toString(), "gpt-4")))
                    .hasMessageContaining("unknown model 'gpt-4': the server serves llama-3-8b, qwen-7b (HTTP 404")
                    .hasMessageContaining("pass one of them with --model");
        }
    }

    @Test
    void aServerWithoutAModelListIsJudgedByTheRequestAlone() throws IOException {
        try (MockWebServer s = server(404, "not found", 500, "{\"error\":{\"message\":\"engine dead\"}}")) {
            assertThatThrownBy(() -> Preflight.check(target(s.url("/").toString(), "m")))
                    .hasMessageContaining("the server answered the one request with HTTP 500: ")
                    .hasMessageContaining("engine dead");
        }
    }
}
