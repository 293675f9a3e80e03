package dev.kneepoint.kernel;

import io.github.spencerpark.jupyter.kernel.ReplacementOptions;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import jdk.jshell.SourceCodeAnalysis.Documentation;
import jdk.jshell.SourceCodeAnalysis.Suggestion;

/**
 * Tab completion and Shift-Tab inspection from JShell's source analysis. Jupyter counts cursor positions in
 * Unicode code points, Java strings in UTF-16 units: positions are converted both ways.
 */
final class Completion {
    private Completion() {}

    static ReplacementOptions complete(JShellSession session, Magics magics, String code, int cursorCodePoints) {
        int at = toIndex(code, cursorCodePoints);
        int lineStart = code.lastIndexOf('\n', Math.max(0, at - 1)) + 1;
        String line = code.substring(lineStart, at);
        if (line.stripLeading().startsWith("%")) {
            String typed = line.stripLeading();
            boolean cell = typed.startsWith("%%");
            String prefix = typed.substring(cell ? 2 : 1);
            if (prefix.chars().allMatch(Character::isLetterOrDigit)) {
                List<String> names = (cell ? Magics.CELL_MAGICS : Magics.LINE_MAGICS).stream()
                        .filter(n -> n.startsWith(prefix)).toList();
                return new ReplacementOptions(names, toCodePoints(code, at - prefix.length()), cursorCodePoints);
            }
            return new ReplacementOptions(List.of(), cursorCodePoints, cursorCodePoints);
        }
        int[] anchor = new int[1];
        List<Suggestion> suggestions = session.withAnalysis(a -> a.completionSuggestions(code, at, anchor));
        boolean anyTyped = suggestions.stream().anyMatch(Suggestion::matchesType);
        Set<String> out = new LinkedHashSet<>();
        for (Suggestion s : suggestions) {
            if (!anyTyped || s.matchesType()) {
                out.add(s.continuation());
            }
        }
        return new ReplacementOptions(new ArrayList<>(out), toCodePoints(code, anchor[0]), cursorCodePoints);
    }

    /** Signature and Javadoc (where the JDK or a sources jar has it) of the name at or before the cursor. */
    static Optional<String> inspect(JShellSession session, String code, int cursorCodePoints) {
        int at = toIndex(code, cursorCodePoints);
        int end = at;
        while (end < code.length() && Character.isJavaIdentifierPart(code.charAt(end))) {
            end++;
        }
        String upTo = code.substring(0, end);
        int e = end;
        List<Documentation> docs = session.withAnalysis(a -> {
            List<Documentation> d = a.documentation(upTo, e, true);
            // JShell documents a method only inside a call: retry as "name(".
            return d.isEmpty() ? a.documentation(upTo + "(", e + 1, true) : d;
        });
        if (docs.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder b = new StringBuilder();
        for (Documentation d : docs) {
            if (!b.isEmpty()) {
                b.append("\n\n");
            }
            b.append(d.signature());
            if (d.javadoc() != null && !d.javadoc().isBlank()) {
                b.append("\n\n").append(d.javadoc().strip());
            }
        }
        return Optional.of(b.toString());
    }

    static int toIndex(String s, int codePoints) {
        int n = Math.max(0, Math.min(codePoints, s.codePointCount(0, s.length())));
        return s.offsetByCodePoints(0, n);
    }

    static int toCodePoints(String s, int index) {
        return s.codePointCount(0, Math.max(0, Math.min(index, s.length())));
    }
}
