"""The kernel verifies Jupyter message signatures (HMAC-SHA256 with the connection file's key).

A request signed with the right key runs; one signed with a wrong key, one with an empty signature and one
whose content was changed after signing are dropped: no reply, no side effect (each would create a file),
and the kernel keeps serving. The shell channel handles requests one at a time in arrival order, so once the
last (correctly signed) request has its reply, the forged ones before it have been read and dropped.
"""
import pathlib
import uuid

import pytest
from jupyter_client.manager import start_new_kernel
from jupyter_client.session import Session


@pytest.fixture(scope="module")
def kernel():
    km, kc = start_new_kernel(kernel_name="kneepoint", startup_timeout=60)
    yield km, kc
    kc.stop_channels()
    km.shutdown_kernel(now=True)


def create_file_cell(path):
    return f'java.nio.file.Files.createFile(java.nio.file.Path.of("{path}"));'


def execute_request(session, code):
    msg = session.msg("execute_request", content={
        "code": code, "silent": False, "store_history": True, "user_expressions": {},
        "allow_stdin": False, "stop_on_error": True})
    # a fresh id: the manager's session and the client's share the session id and pid, and each numbers its
    # own messages from 0, so their ids can collide (a reply to one would be taken for the other's)
    msg["header"]["msg_id"] = msg["msg_id"] = uuid.uuid4().hex
    return msg


def reply_to(kc, msg_id, timeout=60):
    """Shell replies until the one to msg_id; returns (it, parent ids of all replies seen)."""
    seen = []
    while True:
        reply = kc.get_shell_msg(timeout=timeout)
        parent = reply["parent_header"].get("msg_id")
        seen.append(parent)
        if parent == msg_id:
            return reply, seen


def test_connection_uses_a_key_and_hmac_sha256(kernel):
    km, _ = kernel
    info = km.get_connection_info()
    assert info["key"], "the kernel was started without a signing key"
    assert info["signature_scheme"] == "hmac-sha256"


def test_only_correctly_signed_requests_run(kernel, tmp_path):
    km, kc = kernel
    files = {name: tmp_path / f"{name}-{uuid.uuid4().hex}" for name in
             ("signed", "wrong_key", "empty_signature", "tampered", "signed_after", "raw_control")}
    socket = kc.shell_channel.socket
    good = km.session
    forged_ids = []

    # a wrong key
    wrong = Session(key=b"not-the-kernel-key", signature_scheme="hmac-sha256", session=good.session,
                    username=good.username)
    msg = execute_request(wrong, create_file_cell(files["wrong_key"]))
    wrong.send(socket, msg)
    forged_ids.append(msg["header"]["msg_id"])

    # an empty signature (a client without the key)
    unsigned = Session(key=b"", session=good.session, username=good.username)
    msg = execute_request(unsigned, create_file_cell(files["empty_signature"]))
    unsigned.send(socket, msg)
    forged_ids.append(msg["header"]["msg_id"])

    # signed with the right key, then the code changed
    msg = execute_request(good, create_file_cell(files["signed"]).replace("signed", "unsigned"))
    frames = good.serialize(msg)  # [b"<IDS|MSG>", signature, header, parent, metadata, content]
    frames[5] = frames[5].replace(b"unsigned", b"tampered")
    socket.send_multipart(frames)
    forged_ids.append(msg["header"]["msg_id"])

    # control: the same raw path with untouched frames runs (so the forged ones above were delivered)
    msg = execute_request(good, create_file_cell(files["raw_control"]))
    socket.send_multipart(good.serialize(msg))
    control_id = msg["header"]["msg_id"]

    # correctly signed: runs, and its reply proves the kernel read everything sent before it
    msg_id = kc.execute(create_file_cell(files["signed_after"]))
    reply, seen = reply_to(kc, msg_id)
    assert reply["content"]["status"] == "ok", reply["content"]
    assert files["signed_after"].exists()
    assert control_id in seen and files["raw_control"].exists()
    assert not set(forged_ids) & set(seen), "the kernel answered a forged request"
    for name in ("wrong_key", "empty_signature", "tampered"):
        assert not files[name].exists(), f"a request with a {name.replace('_', ' ')} ran"
    assert not any(p.name.startswith("unsigned") or p.name.startswith("tampered") for p in tmp_path.iterdir())

    # and the kernel keeps serving signed requests
    msg_id = kc.execute(create_file_cell(files["signed"]))
    reply, _ = reply_to(kc, msg_id)
    assert reply["content"]["status"] == "ok"
    assert files["signed"].exists()
