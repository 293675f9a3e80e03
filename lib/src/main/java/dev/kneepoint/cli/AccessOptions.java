package dev.kneepoint.cli;

import dev.kneepoint.client.TargetConfig;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * How requests get into a server: the API key (from an environment variable or a file, sent as a Bearer token and
 * never written anywhere), extra headers, and the TLS trust of an {@code https://} server. Nothing is set unless
 * given: {@link TargetConfig}'s defaults (no key, the JDK's trust store, verification on) apply.
 */
final class AccessOptions {
    @Option(names = "--api-key-env", description = "Environment variable holding the API key (sent as a Bearer token)")
    String apiKeyEnv;

    @Option(names = "--api-key-file", description = "File whose first line is the API key (sent as a Bearer token)")
    Path apiKeyFile;

    @Option(names = "--header", description = "Extra request header NAME=VALUE (repeatable)")
    Map<String, String> headers = Map.of();

    @Option(names = "--ca-cert", description = "PEM file of the certificate(s) to trust for https:// (self-signed or private CA)")
    Path caCert;

    @Option(names = "--insecure-skip-tls-verify", description = "Do not verify the server's TLS certificate (test servers only)")
    boolean insecureSkipTlsVerify;

    /** {@code target} with the key, headers and trust given; returns it. */
    TargetConfig.Builder applyTo(TargetConfig.Builder target) {
        headers.forEach(target::header);
        Given.set(apiKeyEnv, target::apiKeyFromEnv);
        Given.set(apiKeyFile, target::apiKeyFromFile);
        Given.set(caCert, target::trustCertificate);
        if (insecureSkipTlsVerify) {
            target.insecureSkipTlsVerify(true);
        }
        return target;
    }
}
