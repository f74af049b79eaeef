"""The launcher (`make run`, i.e. `python -m launcher`) and its data folder: one launcher per DATA_DIR
(a second one says which process holds it and stops, or waits for one that is stopping), and every
process it started ends with it, at whatever point of its start Ctrl-C came (issue 36, item 3)."""

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

from launcher.lock import DataDirInUse, holding
from testkit.processes import REPO, free_port, serves
from testkit.waiting import eventually

pytestmark = pytest.mark.slow

# What the test process's settings would add (the suite's database and Redis): a launcher under
# test starts its own embedded ones in its DATA_DIR, as a newcomer's does.
NOT_PASSED = ("DATABASE_URL", "REDIS_URL", "ENVIRONMENT", "DATA_DIR")


class Launcher:
    """`python -m launcher` in a session of its own (Ctrl-C reaches its whole process group), its
    output in a file, and every process seen to be its own while it ran."""

    def __init__(self, data_dir: Path, log: Path, **env: str) -> None:
        self.data_dir, self.log, self.port = data_dir, log, free_port()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "launcher"],
            cwd=REPO,
            env={
                **{k: v for k, v in os.environ.items() if k not in NOT_PASSED},
                "DATA_DIR": str(data_dir),
                "PORT": str(self.port),
                "CALLROUTE_ASTERISK": "off",
                "ADMIN_EMAIL": "boss@example.com",
                "ADMIN_PASSWORD": "first-admin-1",
                **env,
            },
            stdout=log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.seen: set[psutil.Process] = set()

    @property
    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def look(self) -> set[psutil.Process]:
        """The processes it has started so far (its descendants, the daemons of its engines), added to
        `seen`."""
        with contextlib.suppress(psutil.NoSuchProcess):
            self.seen |= set(psutil.Process(self.proc.pid).children(recursive=True))
        for proc in psutil.process_iter(["cmdline"]):
            if str(self.data_dir) in " ".join(proc.info["cmdline"] or []):
                self.seen.add(proc)
        redis_pid = self._redis_pid()
        if redis_pid:
            with contextlib.suppress(psutil.NoSuchProcess):
                self.seen.add(psutil.Process(redis_pid))
        return self.seen

    def _redis_pid(self) -> int | None:
        """The embedded Redis (a daemon whose command line names a folder of its own)."""
        registry = self.data_dir / "redis.rdb.settings"
        try:
            pidfile = Path(json.loads(registry.read_text())["pidfile"])
            return int(pidfile.read_text().strip())
        except (OSError, ValueError, KeyError):
            return None

    def serving(self) -> bool:
        assert self.proc.poll() is None, f"the launcher exited early:\n{self.output[-3000:]}"
        return serves(f"http://127.0.0.1:{self.port}/docs")

    def ctrl_c(self) -> int:
        self.look()
        os.killpg(self.proc.pid, signal.SIGINT)
        try:
            return self.proc.wait(timeout=90)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            pytest.fail(f"the launcher did not stop within 90 s of Ctrl-C:\n{self.output[-3000:]}")

    def assert_nothing_left(self) -> None:
        def all_ended() -> bool:
            left = [p for p in self.seen if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
            assert left == [], f"left running after the launcher exited: {[p.cmdline() for p in left]}"
            return True

        # The launcher has exited; its daemons' last children (PostgreSQL's) may take a moment more.
        eventually(all_ended, timeout=15, interval=0.2)


def test_a_second_launcher_on_a_data_dir_in_use_refuses_naming_the_first(data_dir: Path) -> None:
    first = Launcher(data_dir, data_dir / "first.log")
    try:
        eventually(first.serving, timeout=240, interval=0.5, what=lambda: first.output[-3000:])
        first.look()
        postmaster = (data_dir / "postgres" / "postmaster.pid").read_text().split()[0]

        second = Launcher(data_dir, data_dir / "second.log")
        try:
            code = second.proc.wait(timeout=60)
        finally:
            if second.proc.poll() is None:  # it did not refuse: it must not outlive the test
                second.ctrl_c()
        assert code == 1, second.output
        said = second.output
        assert f"{data_dir} is in use by another launcher (pid {first.proc.pid})" in said, said
        assert "another DATA_DIR" in said
        # The first runs on, on its own engines: nothing of it was touched or attached to.
        assert first.serving()
        assert (data_dir / "postgres" / "postmaster.pid").read_text().split()[0] == postmaster
        assert "embedded PostgreSQL" not in said and "starting api" not in said
    finally:
        first.ctrl_c()
    first.assert_nothing_left()
    assert "stopped" in first.output


def test_a_launcher_waits_for_one_that_is_stopping_then_starts(data_dir: Path) -> None:
    """The one holding the folder says it is stopping: the next one waits for it, then goes on."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(data_dir)],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdin is not None and holder.stdout is not None
    try:
        assert holder.stdout.readline().strip() == "stopping"
        too_long = f"stopping for over 0 s \\(pid {holder.pid}\\)"
        with pytest.raises(DataDirInUse, match=too_long), holding(data_dir, wait_seconds=0.0):
            pass
        second = Launcher(data_dir, data_dir / "second.log")
        try:
            said = f"waiting for the launcher (pid {holder.pid}) to finish stopping on {data_dir}"
            eventually(lambda: said in second.output, timeout=60, what=lambda: second.output[-2000:])
            assert "embedded PostgreSQL" not in second.output
            holder.stdin.close()  # the stopping launcher is done
            holder.wait(timeout=30)
            eventually(second.serving, timeout=240, interval=0.5, what=lambda: second.output[-3000:])
        finally:
            second.ctrl_c()
        second.assert_nothing_left()
    finally:
        holder.kill()
        holder.wait()


# A launcher that holds the folder and is stopping until its stdin closes.
HOLDER = """
import sys
from pathlib import Path
from launcher.lock import holding
with holding(Path(sys.argv[1])) as lock:
    lock.stopping()
    print("stopping", flush=True)
    sys.stdin.read()
"""


@pytest.mark.parametrize("moment", ["engines starting", "services starting"])
def test_ctrl_c_during_the_start_leaves_no_process_behind(data_dir: Path, moment: str) -> None:
    launcher = Launcher(data_dir, data_dir / "run.log")

    def reached() -> bool:
        assert launcher.proc.poll() is None, launcher.output[-3000:]
        seen = launcher.look()
        if moment == "engines starting":  # PostgreSQL's first process is up, nothing else yet
            return any("postgres" in " ".join(p.cmdline()) for p in seen if p.is_running())
        return "starting worker" in launcher.output

    try:
        eventually(reached, timeout=240, interval=0.05, what=lambda: launcher.output[-3000:])
    finally:
        code = launcher.ctrl_c()
    launcher.assert_nothing_left()
    assert code == 0, launcher.output[-3000:]
    assert "stopped" in launcher.output


def test_ctrl_c_while_kamailio_starts_ends_kamailio_too(kamailio_binary: str, data_dir: Path) -> None:
    """Kamailio runs in a session of its own (so its command stops it in order), out of reach of the
    terminal's Ctrl-C: a Ctrl-C while it started left it running, bound to its port, after the
    launcher (NODES=2) had exited."""
    env = {
        **{k: v for k, v in os.environ.items() if k != "DATA_DIR"},  # the suite's database: carriers
        "DATA_DIR": str(data_dir),
        "KAMAILIO_SIP_PORT": str(free_port(socket.SOCK_DGRAM)),
        "KAMAILIO_NODES": f"127.0.0.1:{free_port(socket.SOCK_DGRAM)}",
    }
    command = subprocess.Popen(
        [sys.executable, "-m", "asterisk_config.kamailio", "run"],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:

        def kamailio_started() -> list[psutil.Process]:
            assert command.poll() is None
            children = psutil.Process(command.pid).children()
            found = [p for p in children if p.as_dict(["name"]).get("name") == "kamailio"]
            assert found, "Kamailio not started yet"
            return found

        (kamailio,) = eventually(kamailio_started, timeout=60, interval=0.02)
        os.killpg(command.pid, signal.SIGINT)  # as Ctrl-C does: the command's group, not Kamailio's
        command.wait(timeout=60)
        eventually(lambda: not kamailio.is_running(), timeout=20, what="Kamailio ended with its command")
    finally:
        if command.poll() is None:
            os.killpg(command.pid, signal.SIGKILL)
            command.wait()
        for proc in psutil.process_iter(["cmdline"]):  # never leave one bound to its port
            if str(data_dir) in " ".join(proc.info["cmdline"] or []):
                proc.kill()
