package dev.kneepoint.kernel;

import io.github.spencerpark.jupyter.channels.StdinChannel;
import io.github.spencerpark.jupyter.messages.HMACGenerator;
import io.github.spencerpark.jupyter.messages.Message;
import org.zeromq.ZMQ;

/**
 * The base kernel's stdin channel, reading {@code input_reply} messages through {@link SignedMessages} so their
 * signatures are compared in constant time ({@code StdinChannel.getInput} reads through {@link #readMessage()}).
 */
final class VerifiedStdinChannel extends StdinChannel {
    VerifiedStdinChannel(ZMQ.Context ctx, HMACGenerator hmac) {
        super(ctx, hmac);
    }

    @Override
    public synchronized Message<?> readMessage() {
        return closed ? null : SignedMessages.read(this, hmacGenerator);
    }
}
