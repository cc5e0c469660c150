"""Output files (`--output FILE`): written whole or not at all, and only where a file of the
user's may be: a new path, or a regular file that --force lets the command replace.

The text goes to a new temporary file beside the target, which is renamed onto it once
complete; a symbolic link, a device, a pipe or a folder at the target is refused, never
turned into a regular file.
"""

from __future__ import annotations

import contextlib
import os
import stat
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Annotated

import typer

from ledger.core.errors import Conflict, InvalidInput

OutputOption = Annotated[
    Path | None, typer.Option("--output", "-o", metavar="FILE", help="Default: standard output.")
]
ForceOption = Annotated[
    bool, typer.Option("--force", help="Replace the --output file if it exists.")
]

_NEW_FILE_MODE = 0o666
"""A new output file's permissions before the umask, as any program's new file."""


@contextlib.contextmanager
def written(output: Path | None, *, force: bool) -> Iterator[IO[str]]:
    """The output file, or standard output if there is none."""
    if output is None:
        yield typer.get_text_stream("stdout")
        return
    replaced = _replaced(output, force=force)
    partial = output.with_name(f".{output.name}.{uuid.uuid4().hex[:12]}.partial")
    try:
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, _NEW_FILE_MODE)
        with open(descriptor, "w", encoding="utf-8", newline="") as out:
            yield out
        if replaced is not None:
            os.chmod(partial, stat.S_IMODE(replaced.st_mode))
        os.replace(partial, output)
    except OSError as error:
        raise InvalidInput(f"{output}: {error.strerror or 'cannot be written'}.") from None
    finally:
        partial.unlink(missing_ok=True)


def _replaced(output: Path, *, force: bool) -> os.stat_result | None:
    """What the output file replaces: nothing, or a regular file (with --force)."""
    try:
        found = output.lstat()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise InvalidInput(f"{output}: {error.strerror or 'cannot be written'}.") from None
    if stat.S_ISLNK(found.st_mode):
        raise InvalidInput(f"{output} is a symbolic link; give the path of the file itself.")
    if stat.S_ISDIR(found.st_mode):
        raise InvalidInput(f"{output} is a folder; give the path of a file in it.")
    if not stat.S_ISREG(found.st_mode):
        raise InvalidInput(f"{output} is not a regular file (a device or a pipe); give a file.")
    if not force:
        raise Conflict(f"{output} already exists; give --force to replace it.")
    return found
