"""The project's own checks, run with the suite: lint, format, types, the layers and the
shape of the package."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(["ruff", "check", "."], id="ruff check"),
        pytest.param(["ruff", "format", "--check", "."], id="ruff format"),
        pytest.param(["mypy"], id="mypy strict"),
        pytest.param(["lint-imports"], id="import contracts"),
    ],
)
def test_check_passes(command: list[str]) -> None:
    executable = BIN / command[0]
    result = subprocess.run(
        [str(executable), *command[1:]], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_alembic_check_finds_no_model_changes(tmp_path: Path) -> None:
    """`alembic check`: the models need no new migration."""
    url = f"sqlite:///{tmp_path / 'check.db'}"
    env = {"LEDGER_DATABASE_URL": url, "PATH": str(BIN)}
    for arguments in (["upgrade", "head"], ["check"]):
        result = subprocess.run(
            [str(BIN / "alembic"), *arguments],
            cwd=ROOT,
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        assert result.returncode == 0, result.stdout + result.stderr


def test_no_module_imports_one_that_imports_it_back() -> None:
    graph = grimp.build_graph("ledger")
    circles = [
        (module, imported)
        for module in sorted(graph.modules)
        for imported in sorted(graph.find_modules_directly_imported_by(module))
        if graph.chain_exists(importer=imported, imported=module)
    ]
    assert circles == []


def test_every_module_lives_in_its_layers_package() -> None:
    top_level = sorted(path.name for path in (ROOT / "ledger").glob("*.py"))
    assert top_level == ["__init__.py", "__main__.py"]
