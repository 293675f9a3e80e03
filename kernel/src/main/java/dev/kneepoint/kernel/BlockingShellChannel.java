package dev.kneepoint.kernel;

import io.github.spencerpark.jupyter.channels.JupyterConnection;
import io.github.spencerpark.jupyter.channels.ShellChannel;
import io.github.spencerpark.jupyter.channels.ShellHandler;
import io.github.spencerpark.jupyter.channels.ShellReplyEnvironment;
import io.github.spencerpark.jupyter.kernel.KernelConnectionProperties;
import io.github.spencerpark.jupyter.messages.HMACGenerator;
import io.github.spencerpark.jupyter.messages.Message;
import java.util.logging.Level;
import org.zeromq.ZMQ;

/**
 * A shell or control channel that waits for requests in a blocking poll. The base kernel's channel polls
 * without waiting and then sleeps 50 ms, so every request waited 25 ms on average (up to 50 ms) before
 * being read: a third of a trivial cell's round trip. Here a request is read as soon as it arrives.
 * Requests are handled on this channel's thread, one at a time, as in the base kernel. Messages are read through
 * {@link SignedMessages}, which compares signatures in constant time (the base kernel uses {@code String.equals}).
 */
final class BlockingShellChannel extends ShellChannel {
    /** How long one poll waits before checking whether the channel was closed. */
    private static final long POLL_MS = 200;

    private final boolean control;
    private final JupyterConnection connection;
    private volatile boolean open = true;
    private final java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);
    private Thread loop;

    BlockingShellChannel(ZMQ.Context ctx, HMACGenerator hmac, boolean control, JupyterConnection connection) {
        super(ctx, hmac, control, connection);
        this.control = control;
        this.connection = connection;
    }

    @Override
    public void bind(KernelConnectionProperties props) {
        String name = control ? "Control" : "Shell";
        bind(formatAddress(props.getTransport(), props.getIp(), control ? props.getControlPort() : props.getShellPort()));
        ZMQ.Poller poller = ctx.poller(1);
        poller.register(this, ZMQ.Poller.POLLIN);
        loop = Thread.ofPlatform().name("kneepoint-" + name.toLowerCase(java.util.Locale.ROOT)).start(() -> run(poller));
    }

    private void run(ZMQ.Poller poller) {
        try {
            while (open) {
                if (poller.poll(POLL_MS) <= 0 || !open) {
                    continue;
                }
                try {
                    handle(readMessage());
                } catch (RuntimeException e) {
                    // A malformed or unsigned message must not end the loop: the kernel would go deaf.
                    logger.log(Level.SEVERE, "Dropped a message that could not be read", e);
                }
            }
        } finally {
            poller.close();
            stopped.countDown();
        }
    }

    /** Reads one request, verifying its signature in constant time; null once closed, as in the base kernel. */
    @Override
    public synchronized Message<?> readMessage() {
        return closed ? null : SignedMessages.read(this, hmacGenerator);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void handle(Message<?> message) {
        ShellHandler handler = connection.getHandler(message.getHeader().getType());
        if (handler == null) {
            logger.log(Level.SEVERE, "Unhandled message: " + message.getHeader().getType().getName());
            return;
        }
        ShellReplyEnvironment env = connection.prepareReplyEnv(this, message);
        try {
            handler.handle(env, message);
        } catch (RuntimeException e) {
            logger.log(Level.SEVERE, "Unhandled exception handling " + message.getHeader().getType().getName(), e);
        } finally {
            env.resolveDeferrals();
        }
        if (env.isMarkedForShutdown()) {
            open = false;
            Thread.ofPlatform().daemon().start(connection::close); // close() joins this thread
        }
    }

    @Override
    public void close() {
        open = false;
        stopped.countDown();
        Thread t = loop;
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(2 * POLL_MS + 1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        super.close();
    }

    /**
     * Returns once the channel is closed (its loop may still be finishing a request: a cell that ignores the
     * interrupt must not keep the kernel from exiting on a shutdown request).
     */
    @Override
    public void waitUntilClose() {
        try {
            stopped.await();
            Thread t = loop;
            if (t != null) {
                t.join(2 * POLL_MS + 1000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
