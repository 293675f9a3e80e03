package dev.kneepoint.kernel;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import jdk.jshell.Diag;
import jdk.jshell.EvalException;
import jdk.jshell.JShellException;
import jdk.jshell.UnresolvedReferenceException;

/** Short, readable renderings of compile diagnostics and snippet exceptions. */
final class ErrorFormat {
    /** Frames shown per exception: enough to locate the failure, never a page. */
    static final int MAX_FRAMES = 6;

    private ErrorFormat() {}

    /** One diagnostic: its message, the source line it points at and a caret under the span. */
    static List<String> diagnostic(String source, Diag d) {
        List<String> out = new ArrayList<>();
        String kind = d.isError() ? "error" : "warning";
        String[] msg = d.getMessage(Locale.ROOT).split("\n");
        out.add(kind + ": " + msg[0]);
        for (int i = 1; i < msg.length; i++) {
            out.add("  " + msg[i]);
        }
        long pos = d.getPosition() >= 0 ? d.getPosition() : d.getStartPosition();
        if (pos >= 0 && pos <= source.length()) {
            int p = (int) pos;
            int lineStart = source.lastIndexOf('\n', Math.max(0, p - 1)) + 1;
            if (p < source.length() && source.charAt(p) == '\n' && p == lineStart) {
                lineStart = source.lastIndexOf('\n', Math.max(0, p - 2)) + 1;
            }
            int lineEnd = source.indexOf('\n', lineStart);
            if (lineEnd < 0) {
                lineEnd = source.length();
            }
            int lineNo = 1 + (int) source.substring(0, lineStart).chars().filter(c -> c == '\n').count();
            String line = source.substring(lineStart, lineEnd);
            int col = Math.min(Math.max(0, p - lineStart), line.length());
            long end = d.getEndPosition() > pos ? Math.min(d.getEndPosition(), lineEnd) : pos + 1;
            int width = Math.max(1, (int) (end - pos));
            String prefix = String.format(Locale.ROOT, "%4d | ", lineNo);
            out.add(prefix + line);
            out.add(" ".repeat(prefix.length() + col) + "^".repeat(Math.min(width, Math.max(1, line.length() - col))));
        }
        return out;
    }

    /** A snippet exception: {@code Class: message}, a few user-relevant frames, and its causes. */
    static List<String> exception(JShellException e) {
        List<String> out = new ArrayList<>();
        Throwable t = e;
        boolean first = true;
        int depth = 0;
        while (t != null && depth++ < 5) {
            out.add((first ? "" : "Caused by: ") + headline(t));
            int shown = 0;
            StackTraceElement[] frames = t.getStackTrace();
            int hidden = 0;
            for (StackTraceElement f : frames) {
                if (isMachinery(f)) {
                    continue;
                }
                if (shown < (first ? MAX_FRAMES : 2)) {
                    out.add("    at " + frame(f));
                    shown++;
                } else {
                    hidden++;
                }
            }
            if (hidden > 0) {
                out.add("    ... " + hidden + " more");
            }
            first = false;
            t = t.getCause();
        }
        return out;
    }

    static String headline(Throwable t) {
        if (t instanceof EvalException ee) {
            String m = ee.getMessage();
            return ee.getExceptionClassName() + (m == null ? "" : ": " + m);
        }
        if (t instanceof UnresolvedReferenceException ure) {
            return "Unresolved reference: " + ure.getSnippet().source().strip()
                    + " cannot run until what it references is declared";
        }
        String m = t.getMessage();
        return t.getClass().getName() + (m == null ? "" : ": " + m);
    }

    private static boolean isMachinery(StackTraceElement f) {
        String c = f.getClassName();
        return c.startsWith("jdk.internal.") || c.startsWith("java.lang.reflect.") || c.startsWith("jdk.jshell.")
                || c.startsWith("java.lang.Thread");
    }

    private static String frame(StackTraceElement f) {
        if (f.getClassName().startsWith("REPL.")) {
            String file = f.getFileName();
            String where = file != null && file.startsWith("#") ? "snippet " + file : "cell";
            String method = f.getMethodName().equals("do_it$") ? "" : f.getMethodName() + " ";
            return method + "(" + where + (f.getLineNumber() > 0 ? ", line " + f.getLineNumber() : "") + ")";
        }
        return f.toString();
    }
}
