package dev.kneepoint.kernel;

import io.github.spencerpark.jupyter.kernel.history.HistoryEntry;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** Inputs of this kernel session's cells, for {@code history_request} (tail, range and search). */
final class History {
    /** This session's number in history replies. */
    static final int SESSION = 1;

    private final List<HistoryEntry> entries = new ArrayList<>();

    synchronized void add(int executionCount, String input) {
        entries.add(new HistoryEntry(SESSION, executionCount, input));
    }

    /** Records the text of the result of cell {@code executionCount} (its last entry). */
    synchronized void setOutput(int executionCount, String output) {
        for (int i = entries.size() - 1; i >= 0; i--) {
            HistoryEntry e = entries.get(i);
            if (e.getCellNumber() == executionCount) {
                entries.set(i, new HistoryEntry(e.getSession(), e.getCellNumber(), e.getInput(), output));
                return;
            }
        }
    }

    /** The last {@code n} entries. */
    synchronized List<HistoryEntry> tail(int n) {
        int from = Math.max(0, entries.size() - Math.max(0, n));
        return List.copyOf(entries.subList(from, entries.size()));
    }

    /** Entries with {@code start <= line < stop} (stop {@code <= 0}: to the end) of this session (0 or 1). */
    synchronized List<HistoryEntry> range(int session, int start, int stop) {
        if (session != 0 && session != SESSION) {
            return List.of();
        }
        return entries.stream().filter(e -> e.getCellNumber() >= start && (stop <= 0 || e.getCellNumber() < stop)).toList();
    }

    /** The last {@code n} entries (all when {@code n <= 0}) matching a glob ({@code *}, {@code ?}). */
    synchronized List<HistoryEntry> search(String glob, int n, boolean unique) {
        Pattern p = Pattern.compile(globToRegex(glob == null || glob.isEmpty() ? "*" : glob), Pattern.DOTALL);
        List<HistoryEntry> matched = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (int i = entries.size() - 1; i >= 0 && (n <= 0 || matched.size() < n); i--) {
            HistoryEntry e = entries.get(i);
            if (p.matcher(e.getInput()).matches() && (!unique || seen.add(e.getInput()))) {
                matched.add(0, e);
            }
        }
        return matched;
    }

    static String globToRegex(String glob) {
        StringBuilder b = new StringBuilder();
        for (char c : glob.toCharArray()) {
            switch (c) {
                case '*' -> b.append(".*");
                case '?' -> b.append('.');
                default -> b.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return b.toString();
    }
}
