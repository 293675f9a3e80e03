package dev.kneepoint.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CellParserTest {
    @Test
    void cellMagicTakesTheRestOfTheCell() {
        var cell = CellParser.parse("\n%%time\nint x = 1;\nx + 1");
        assertThat(cell).isEqualTo(new CellParser.WithCellMagic("time", List.of(), "int x = 1;\nx + 1"));
    }

    @Test
    void lineMagicsSplitTheCodeInOrder() {
        var cell = (CellParser.Plain) CellParser.parse("int a = 1;\n%jars lib/*.jar \"my dir/x.jar\"\na * 2\n  %maven g:a:1");
        assertThat(cell.pieces()).containsExactly(
                new CellParser.Code("int a = 1;\n"),
                new CellParser.LineMagic("jars", List.of("lib/*.jar", "my dir/x.jar")),
                new CellParser.Code("a * 2\n"),
                new CellParser.LineMagic("maven", List.of("g:a:1")));
    }

    @Test
    void moduloAtLineStartIsNotAMagic() {
        var cell = (CellParser.Plain) CellParser.parse("int r = 7\n  % 3;");
        assertThat(cell.pieces()).containsExactly(new CellParser.Code("int r = 7\n  % 3;\n"));
    }
}
