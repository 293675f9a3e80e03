package dev.kneepoint.kernel;

import io.github.spencerpark.jupyter.channels.JupyterConnection;
import io.github.spencerpark.jupyter.channels.ShellChannel;
import io.github.spencerpark.jupyter.channels.ShellReplyEnvironment;
import io.github.spencerpark.jupyter.kernel.KernelConnectionProperties;
import io.github.spencerpark.jupyter.messages.Message;
import io.github.spencerpark.jupyter.messages.MessageContext;
import io.github.spencerpark.jupyter.messages.publish.PublishStatus;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import org.zeromq.ZMQ;

/**
 * The base kernel's connection with its shell and control channels replaced by {@link BlockingShellChannel}s
 * (requests are read as they arrive instead of up to 50 ms later), and its stdin channel by a {@link
 * VerifiedStdinChannel}: every channel that reads messages verifies their signatures in constant time
 * ({@link SignedMessages}). Heartbeat and IOPub are the base kernel's. The replaced channels' sockets are never
 * bound and are closed with the connection.
 */
final class KernelConnection extends JupyterConnection {
    private final KernelConnectionProperties props;
    private final ZMQ.Context ctx = ZMQ.context(1);
    private final BlockingShellChannel fastShell;
    private final BlockingShellChannel fastControl;
    private final VerifiedStdinChannel verifiedStdin;
    private boolean connected;

    KernelConnection(KernelConnectionProperties props) throws NoSuchAlgorithmException, InvalidKeyException {
        super(props);
        this.props = props;
        this.fastShell = new BlockingShellChannel(ctx, props.createHMACGenerator(), false, this);
        this.fastControl = new BlockingShellChannel(ctx, props.createHMACGenerator(), true, this);
        this.verifiedStdin = new VerifiedStdinChannel(ctx, props.createHMACGenerator());
    }

    /** The base kernel's reply environment, with this connection's stdin channel (the base one is never bound). */
    @Override
    public ShellReplyEnvironment prepareReplyEnv(ShellChannel shell, MessageContext context) {
        return new ShellReplyEnvironment(shell, verifiedStdin, iopub, context) { };
    }

    @Override
    public synchronized void connect() {
        if (connected) {
            return;
        }
        heartbeat.bind(props);
        fastShell.bind(props);
        fastControl.bind(props);
        verifiedStdin.bind(props);
        iopub.bind(props);
        iopub.sendMessage(new Message<>(null, PublishStatus.MESSAGE_TYPE, PublishStatus.STARTING));
        connected = true;
    }

    @Override
    public void close() {
        fastShell.close();
        fastControl.close();
        verifiedStdin.close();
        super.close();
        ctx.close();
    }

    @Override
    public void waitUntilClose() {
        fastShell.waitUntilClose();
        fastControl.waitUntilClose();
        super.waitUntilClose();
    }
}
