"""The parts of Typer the command line uses that Typer does not publish, named here once.

Typer keeps its own copy of Click (`typer._click`) and publishes none of its classes but
`BadParameter`: the command line needs Click's context, command and parameter classes and
the usage errors its parser raises, to word each in the ledger's own line
(`ledger.cli.usage`), and the functions that make Click's commands of Typer's, to build
one command at a time (`ledger.cli.commands`). Typer converts values with pydantic, whose
import is a large part of a quick command's start; `ledger.cli.usage.PlainValues` converts
the plain ones without it, through Typer's conversion classes.

No other module of the ledger imports a private part of Typer: a new Typer is checked here
(`tests/test_usage.py`, which runs every usage error and every conversion), and the pin in
`pyproject.toml` follows Typer's releases as this module does.
"""

from __future__ import annotations

from typer import _click
from typer._coercion import RuntimeParam, build_runtime_param
from typer._param_types import coerce_cli_choice
from typer.core import TyperArgument, TyperCommand, TyperGroup
from typer.core import _TyperParameter as TyperParameter
from typer.main import get_command_from_info, get_command_name, get_group

Context = _click.Context
Command = _click.Command
Parameter = _click.core.Parameter

UsageError = _click.exceptions.UsageError
MissingParameter = _click.exceptions.MissingParameter
BadParameter = _click.exceptions.BadParameter
NoSuchOption = _click.exceptions.NoSuchOption
BadOptionUsage = _click.exceptions.BadOptionUsage
NoArgsIsHelpError = _click.exceptions.NoArgsIsHelpError

__all__ = [
    "BadOptionUsage",
    "BadParameter",
    "Command",
    "Context",
    "MissingParameter",
    "NoArgsIsHelpError",
    "NoSuchOption",
    "Parameter",
    "RuntimeParam",
    "TyperArgument",
    "TyperCommand",
    "TyperGroup",
    "TyperParameter",
    "UsageError",
    "build_runtime_param",
    "coerce_cli_choice",
    "get_command_from_info",
    "get_command_name",
    "get_group",
]
