package dev.kneepoint.kernel;

import io.github.spencerpark.jupyter.channels.JupyterConnection;
import io.github.spencerpark.jupyter.kernel.LanguageInfo;
import io.github.spencerpark.jupyter.kernel.history.HistoryEntry;
import io.github.spencerpark.jupyter.messages.Header;
import io.github.spencerpark.jupyter.messages.MessageType;
import io.github.spencerpark.jupyter.messages.ContentType;
import io.github.spencerpark.jupyter.messages.ReplyType;
import io.github.spencerpark.jupyter.messages.reply.KernelInfoReply;
import io.github.spencerpark.jupyter.messages.request.HistoryRequest;
import java.util.List;

/**
 * Replaces the base kernel's handlers where it does not follow the protocol: its {@code kernel_info_reply}
 * has no {@code status}, and it never answers {@code history_request} (clients then wait forever).
 */
final class ProtocolHandlers {
    static final String IMPLEMENTATION = "kneepoint";
    static final String VERSION = "0.1.0";

    private ProtocolHandlers() {}

    static void install(JupyterConnection connection, KneepointKernel kernel) {
        connection.setHandler(MessageType.KERNEL_INFO_REQUEST, (env, msg) -> {
            env.setBusyDeferIdle();
            env.reply(new KernelInfoOk(kernel.getLanguageInfo(), kernel.getBanner()));
        });
        connection.setHandler(MessageType.HISTORY_REQUEST, (env, msg) -> {
            env.setBusyDeferIdle();
            HistoryRequest request = msg.getContent();
            env.reply(new HistoryOk(lookup(kernel.history(), request), request.includeOutput()));
        });
    }

    static List<HistoryEntry> lookup(History history, HistoryRequest request) {
        return switch (request) {
            case HistoryRequest.Tail t -> history.tail(t.getMaxReturnLength());
            case HistoryRequest.Range r -> history.range(r.getSessionIndex(), r.getStart(), r.getStop());
            case HistoryRequest.Search s -> history.search(s.getPattern(), s.getMaxReturnLength(), s.filterUnique());
            default -> List.of();
        };
    }

    /** {@code kernel_info_reply} with the {@code status} the protocol requires. */
    static final class KernelInfoOk extends KernelInfoReply {
        @SuppressWarnings("unused") // serialized by Gson
        private final String status = "ok";

        KernelInfoOk(LanguageInfo info, String banner) {
            super(Header.PROTOCOL_VERISON, IMPLEMENTATION, VERSION, info, banner, null);
        }
    }

    /**
     * {@code history_reply} with a status and entries as the protocol's tuples:
     * {@code [session, line, input]} or, with output, {@code [session, line, [input, output]]}.
     */
    static final class HistoryOk implements ContentType<HistoryOk>, ReplyType<HistoryRequest> {
        @SuppressWarnings("unchecked")
        private static final MessageType<HistoryOk> TYPE = (MessageType<HistoryOk>) (MessageType<?>) MessageType.HISTORY_REPLY;

        @SuppressWarnings("unused") // serialized by Gson
        private final String status = "ok";
        private final List<List<Object>> history;

        HistoryOk(List<HistoryEntry> entries, boolean withOutput) {
            this.history = entries.stream().map(e -> List.<Object>of(e.getSession(), e.getCellNumber(),
                    withOutput ? List.of(e.getInput(), e.hasOutput() ? e.getOutput() : "") : e.getInput())).toList();
        }

        List<List<Object>> history() {
            return history;
        }

        @Override
        public MessageType<HistoryOk> getType() {
            return TYPE;
        }

        @Override
        public MessageType<HistoryRequest> getRequestType() {
            return HistoryRequest.MESSAGE_TYPE;
        }
    }
}
