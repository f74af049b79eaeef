"""`make run`'s portal: one process per core unless PORTAL_WORKERS says, their metrics in a folder
of the data folder emptied before each start (launcher.run.portal_child). The real start of several
processes is tests/launcher/test_run_command.py's (on a machine with cores) and
tests/api/test_processes_metrics.py's."""

import os
from pathlib import Path

from core.infra.settings import Settings
from launcher.run import portal_child


def test_one_process_per_core_by_default(tmp_path: Path) -> None:
    child = portal_child("127.0.0.1", 8000, Settings(data_dir=tmp_path, portal_workers=0))
    cores = os.cpu_count() or 1
    assert (_workers(child.argv) == str(cores)) == (cores > 1)


def test_several_processes_start_with_an_empty_metrics_folder(tmp_path: Path) -> None:
    child = portal_child("127.0.0.1", 8000, Settings(data_dir=tmp_path, portal_workers=3))
    assert _workers(child.argv) == "3"
    metrics = Path(child.own_env["PROMETHEUS_MULTIPROC_DIR"])
    assert metrics == tmp_path / "portal-metrics"
    metrics.mkdir()
    (metrics / "histogram_123.db").write_bytes(b"a former run's figures")
    assert child.before_start is not None
    child.before_start()
    assert metrics.is_dir() and not any(metrics.iterdir())


def test_one_process_needs_no_metrics_folder(tmp_path: Path) -> None:
    child = portal_child("127.0.0.1", 8000, Settings(data_dir=tmp_path, portal_workers=1))
    assert "--workers" not in child.argv and child.own_env == {} and child.before_start is None


def _workers(argv: list[str]) -> str | None:
    return argv[argv.index("--workers") + 1] if "--workers" in argv else None
