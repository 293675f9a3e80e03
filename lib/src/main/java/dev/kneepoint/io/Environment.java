package dev.kneepoint.io;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.net.InetAddress;
import java.util.Objects;

/** The facts about the measuring machine that the manifest records. */
final class Environment {
    private Environment() {}

    static String libraryVersion() {
        return Objects.requireNonNullElse(Environment.class.getPackage().getImplementationVersion(), "development");
    }

    static String hostName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown";
        }
    }

    static void write(JsonGenerator g) throws IOException {
        Runtime rt = Runtime.getRuntime();
        g.writeStringField("library_version", libraryVersion());
        g.writeObjectFieldStart("jvm");
        g.writeStringField("version", System.getProperty("java.version"));
        g.writeStringField("vendor", System.getProperty("java.vendor"));
        g.writeStringField("vm_name", System.getProperty("java.vm.name"));
        g.writeEndObject();
        g.writeObjectFieldStart("os");
        g.writeStringField("name", System.getProperty("os.name"));
        g.writeStringField("version", System.getProperty("os.version"));
        g.writeStringField("arch", System.getProperty("os.arch"));
        g.writeEndObject();
        g.writeNumberField("cpu_count", rt.availableProcessors());
        g.writeNumberField("max_heap_bytes", rt.maxMemory());
        g.writeNumberField("total_memory_bytes", rt.totalMemory());
        g.writeStringField("host_name", hostName());
    }
}
