package dev.kneepoint.client;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import javax.net.SocketFactory;

/**
 * Plain sockets with {@code TCP_NODELAY} on. With Nagle's algorithm a request body larger than one
 * segment leaves its tail waiting for the server's (delayed) ACK, adding ~40 ms to the TTFT of every
 * long-prompt request: a client-made latency that a benchmark must not report as the server's.
 */
final class NoDelaySocketFactory extends SocketFactory {
    private final SocketFactory delegate = SocketFactory.getDefault();

    private static Socket noDelay(Socket s) throws IOException {
        s.setTcpNoDelay(true);
        return s;
    }

    @Override
    public Socket createSocket() throws IOException {
        return noDelay(delegate.createSocket());
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return noDelay(delegate.createSocket(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return noDelay(delegate.createSocket(host, port, localHost, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return noDelay(delegate.createSocket(host, port));
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
            throws IOException {
        return noDelay(delegate.createSocket(address, port, localAddress, localPort));
    }
}
