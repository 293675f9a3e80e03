"""The launcher's promises, checked by running bin/kneepoint as a user does (after the build).

Run by `bin/kneepoint test` (through `bin/kneepoint-kernel test`)."""

import os
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_a_jvm_crash_says_where_its_report_went_and_leaves_none_in_the_working_directory(tmp_path):
    # A heap too small to start in, and the JVM told to crash on running out of it: the crash path, on demand.
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"),
               KNEEPOINT_JAVA_OPTS="-Xmx6m -XX:+CrashOnOutOfMemoryError")
    work = tmp_path / "work"
    work.mkdir()
    p = subprocess.run([str(ROOT / "bin" / "kneepoint"), "demo", "--out", str(work / "run")], cwd=work, env=env,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode != 0
    said = re.search(r"kneepoint: the JVM crashed.*its report is (\S+hs_err_pid\d+\.log).*$", p.stderr, re.M)
    assert said, p.stderr[-2000:]
    report = pathlib.Path(said.group(1))
    assert report.parent == tmp_path / "cache" / "kneepoint" / "crashes"
    assert report.is_file() and "fatal error" in report.read_text(errors="replace")
    assert "RELIABILITY.md" in said.group(0)
    assert not list(work.glob("hs_err_pid*")), "the report must not land in the working directory"
