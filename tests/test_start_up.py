"""A command starts without the libraries only some commands use (issue 12's start-up)."""

from __future__ import annotations

import subprocess
import sys

from alembic.script import ScriptDirectory

from ledger.storage.schema import HEAD_REVISION, alembic_config

ONLY_WHERE_USED = ("alembic", "chess", "fastapi", "uvicorn")
"""Schema upgrades, the PGN import and `ledger serve` import these; no other command waits."""


def test_the_head_revision_is_the_newest_migration() -> None:
    assert ScriptDirectory.from_config(alembic_config()).get_heads() == [HEAD_REVISION]


def test_the_command_line_starts_without_what_only_some_commands_use() -> None:
    started = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys, ledger.cli; print(sorted(set({ONLY_WHERE_USED!r}) & set(sys.modules)))",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert started.stdout == "[]\n"
