package dev.kneepoint.client;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;

/**
 * A self-signed server certificate for {@code localhost} / {@code 127.0.0.1}, made once per JVM with the
 * JDK's own {@code keytool} (no extra test dependency), as a server socket factory and a PEM file.
 */
final class TlsFixture {
    private static final String PASS = "changeit";
    private static TlsFixture instance;

    final Path pem;
    final SSLSocketFactory serverSockets;

    private TlsFixture(Path pem, SSLSocketFactory serverSockets) {
        this.pem = pem;
        this.serverSockets = serverSockets;
    }

    static synchronized TlsFixture get() throws Exception {
        if (instance == null) {
            Path dir = Files.createTempDirectory("kneepoint-tls");
            dir.toFile().deleteOnExit();
            Path ks = dir.resolve("server.p12");
            Path pem = dir.resolve("server.pem");
            keytool("-genkeypair", "-alias", "srv", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
                    "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2", "-keystore", ks.toString(),
                    "-storetype", "PKCS12", "-storepass", PASS, "-keypass", PASS);
            keytool("-exportcert", "-rfc", "-alias", "srv", "-keystore", ks.toString(), "-storepass", PASS,
                    "-file", pem.toString());
            KeyStore store = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(ks)) {
                store.load(in, PASS.toCharArray());
            }
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(store, PASS.toCharArray());
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf.getKeyManagers(), null, null);
            pem.toFile().deleteOnExit();
            ks.toFile().deleteOnExit();
            instance = new TlsFixture(pem, ctx.getSocketFactory());
        }
        return instance;
    }

    private static void keytool(String... args) throws Exception {
        Path tool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        List<String> cmd = new java.util.ArrayList<>(List.of(tool.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException("keytool failed: " + out);
        }
    }
}
