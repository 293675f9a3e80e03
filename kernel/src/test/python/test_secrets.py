"""A planted API key never reaches a notebook's outputs (what an executed notebook saves) nor the kernel's log.

The key is read from a file by TargetConfig; the cells show the target, a sweep's result, the run directory's
manifest and an error from a bad configuration that also names the key file, and a header carries the key too (read from the file,
so that no cell's source contains it).
Every output message's content is searched for the key, as are the run directory and the kernel's stderr.
"""
import json
import pathlib
import uuid

from jupyter_client.manager import start_new_kernel


def run(kc, code, timeout=120):
    msg_id = kc.execute(code)
    reply = kc.get_shell_msg(timeout=timeout)
    while reply["parent_header"].get("msg_id") != msg_id:
        reply = kc.get_shell_msg(timeout=timeout)
    outputs = []
    while True:
        msg = kc.get_iopub_msg(timeout=timeout)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            return reply["content"], outputs
        outputs.append(msg)


def test_a_planted_key_never_reaches_outputs_run_directory_or_log(tmp_path):
    key = "sk-kneepoint-planted-" + uuid.uuid4().hex
    key_file = tmp_path / "key.txt"
    key_file.write_text(key + "\n")
    runs = tmp_path / "runs"
    log = tmp_path / "kernel-stderr.txt"
    with open(log, "w") as stderr:
        km, kc = start_new_kernel(kernel_name="kneepoint", startup_timeout=60, stderr=stderr)
    try:
        cells = [
            'var sim = Kneepoint.simulator("fast");',
            f'var keyed = Kneepoint.targetBuilder().baseUrl(sim.url()).model("sim-fast")'
            f'.apiKeyFromFile(java.nio.file.Path.of("{key_file}"))'
            f'.header("X-Api-Key", java.nio.file.Files.readString(java.nio.file.Path.of("{key_file}")).strip())'
            '.build();',
            "keyed",
            "System.out.println(keyed); keyed.describe()",
            f'var r = Kneepoint.ladder(keyed, 1).inputTokens(8).outputTokens(4)'
            f'.stepDuration(java.time.Duration.ofMillis(300)).warmup(java.time.Duration.ZERO)'
            f'.outputDir(java.nio.file.Path.of("{runs}")).name("keyed").run();',
            "r",
            # a bad configuration with the key file: the error lists the problems, never the key
            f'Kneepoint.targetBuilder().baseUrl("not a url").model("m")'
            f'.apiKeyFromFile(java.nio.file.Path.of("{key_file}")).build()',
        ]
        seen = []
        for code in cells:
            content, outputs = run(kc, code)
            seen.append(json.dumps(content))
            seen.extend(json.dumps(m["content"]) for m in outputs)
        text = "\n".join(seen)
        assert "sim-fast" in text and "file:" in text  # the cells did show the target
        assert "not a url" in text  # and the error
        assert key not in text, "the API key appeared in a cell's output"
        run(kc, "sim.close();")
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    files = [p for p in runs.rglob("*") if p.is_file()]
    assert files, "the sweep wrote no run directory"
    for p in files:
        assert key.encode() not in p.read_bytes(), f"the API key is in {p.name}"
    assert key not in log.read_text(errors="replace"), "the API key is in the kernel's log"
