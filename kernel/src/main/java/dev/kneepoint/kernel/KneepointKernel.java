package dev.kneepoint.kernel;

import dev.kneepoint.kernel.render.ResultRenderer;
import dev.kneepoint.metrics.StepProgress;
import dev.kneepoint.sweep.SweepWatch;
import io.github.spencerpark.jupyter.channels.JupyterConnection;
import io.github.spencerpark.jupyter.kernel.BaseKernel;
import io.github.spencerpark.jupyter.kernel.LanguageInfo;
import io.github.spencerpark.jupyter.kernel.ReplacementOptions;
import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import io.github.spencerpark.jupyter.kernel.display.mime.MIMEType;
import io.github.spencerpark.jupyter.messages.MessageType;
import io.github.spencerpark.jupyter.messages.reply.InterruptReply;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import jdk.jshell.SourceCodeAnalysis.Completeness;

/**
 * The Kneepoint Jupyter kernel: cells run in a {@link JShellSession} inside this JVM, magics are handled by
 * {@link Magics}, values are shown by {@link Displays}. Protocol gaps of the base kernel (kernel_info without
 * a status, no history, no interrupt) are filled by {@link ProtocolHandlers}.
 */
public final class KneepointKernel extends BaseKernel implements Notebook.Host {
    /** How often a live progress display polls. */
    static final long PROGRESS_PERIOD_MS = 500;

    private final CompletableFuture<JShellSession> session;
    private final Magics magics;
    private final Displays displays;
    private final History history = new History();
    private final List<LiveProgress> openProgress = new ArrayList<>();
    private volatile boolean executing;
    private volatile boolean interruptPending;
    private final LanguageInfo languageInfo = new LanguageInfo("Java", Integer.toString(Runtime.version().feature()),
            "text/x-java-source", ".jshell", "java", "java", null);

    /**
     * @param session the JShell session, possibly still starting (the first cell waits for it)
     * @param maven   resolver for {@code %maven}
     */
    public KneepointKernel(CompletableFuture<JShellSession> session, MavenResolver maven) {
        this.session = session;
        this.magics = new Magics(this::session, maven, this::interruptPending);
        this.displays = new Displays(getRenderer(), dev.kneepoint.kernel.render.TableRenderer.DEFAULT_MAX_ROWS);
        Notebook.attach(this);
        // A blocking sweep run from a cell shows its progress in that cell, without watch(...).
        SweepWatch.install(progress -> executing
                ? live(() -> progress.get().step(), () -> ResultRenderer.headline(progress.get()))::close : null);
    }

    JShellSession session() {
        try {
            return session.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while JShell was starting", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("JShell failed to start: " + e.getCause().getMessage(), e.getCause());
        }
    }

    History history() {
        return history;
    }

    @Override
    public void becomeHandlerForConnection(JupyterConnection connection) {
        super.becomeHandlerForConnection(connection);
        ProtocolHandlers.install(connection, this);
        connection.setHandler(MessageType.INTERRUPT_REQUEST, (env, msg) -> {
            interrupt();
            env.reply(new InterruptReply());
        });
    }

    /**
     * Stops the running cell, if any (busy snippet loops and blocked interruptible calls alike). An interrupt
     * that arrives while the cell still waits for JShell to start, or between its snippets, stops it too.
     */
    public void interrupt() {
        if (!executing) {
            return;
        }
        interruptPending = true;
        if (session.isDone() && !session.isCompletedExceptionally()) {
            session.join().interrupt();
        }
    }

    boolean interruptPending() {
        return interruptPending;
    }

    @Override
    public LanguageInfo getLanguageInfo() {
        return languageInfo;
    }

    @Override
    public String getBanner() {
        return "Java " + Runtime.version() + " (Kneepoint)";
    }

    @Override
    public DisplayData eval(String code) throws Exception {
        int count = executionCount.get() - 1;
        history.add(count, code);
        interruptPending = false;
        executing = true;
        try {
            Optional<CellValue> value = magics.run(code);
            DisplayData shown = value.map(v -> displays.render(v.value())).orElse(null);
            if (shown != null && shown.getData(MIMEType.TEXT_PLAIN) instanceof String text) {
                history.setOutput(count, text);
            }
            return shown;
        } catch (CellException.Interrupted e) {
            e.partial().ifPresent(v -> display(displays.render(v.value())));
            throw e;
        } finally {
            executing = false;
            closeProgress();
            System.out.flush();
            System.err.flush();
        }
    }

    private void closeProgress() {
        List<LiveProgress> open;
        synchronized (openProgress) {
            open = List.copyOf(openProgress);
            openProgress.clear();
        }
        open.forEach(LiveProgress::close);
    }

    @Override
    public List<String> formatError(Exception e) {
        if (e instanceof CellException ce) {
            List<String> lines = new ArrayList<>();
            List<String> src = ce.lines();
            for (int i = 0; i < src.size(); i++) {
                lines.add(i == 0 ? errorStyler.secondary(src.get(i)) : src.get(i));
            }
            return lines;
        }
        return super.formatError(e);
    }

    @Override
    public ReplacementOptions complete(String code, int at) {
        return Completion.complete(session(), magics, code, at);
    }

    @Override
    public DisplayData inspect(String code, int at, boolean extraDetail) {
        return Completion.inspect(session(), code, at).map(DisplayData::new).orElse(null);
    }

    @Override
    public String isComplete(String code) {
        if (CellParser.parse(code) instanceof CellParser.WithCellMagic || code.strip().startsWith("%")) {
            return IS_COMPLETE_YES;
        }
        Completeness c = session().completeness(code);
        return switch (c) {
            case COMPLETE, COMPLETE_WITH_SEMI, EMPTY -> IS_COMPLETE_YES;
            case DEFINITELY_INCOMPLETE, CONSIDERED_INCOMPLETE -> "    ";
            case UNKNOWN -> IS_COMPLETE_BAD;
        };
    }

    @Override
    public void onShutdown(boolean isRestarting) {
        closeProgress();
        if (session.isDone() && !session.isCompletedExceptionally()) {
            session.join().close();
        }
    }

    // ---- Notebook.Host: what cells call through Notebook's statics ----

    @Override
    public String display(Object value) {
        DisplayData d = displays.render(value);
        String id = UUID.randomUUID().toString();
        d.setDisplayId(id);
        display(d);
        return id;
    }

    @Override
    public void updateDisplay(String displayId, Object value) {
        getIO().display.updateDisplay(displayId, displays.render(value));
    }

    @Override
    public LiveProgress live(Supplier<Optional<StepProgress>> progress, Supplier<String> headline) {
        LiveProgress p = new LiveProgress(progress, headline, new LiveProgress.Sink() {
            @Override
            public void show(String displayId, DisplayData data) {
                data.setDisplayId(displayId);
                display(data);
            }

            @Override
            public void update(String displayId, DisplayData data) {
                getIO().display.updateDisplay(displayId, data);
            }
        }, UUID.randomUUID().toString(), PROGRESS_PERIOD_MS, System::nanoTime);
        synchronized (openProgress) {
            openProgress.add(p);
        }
        return p.start();
    }
}
