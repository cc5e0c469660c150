"""Usage errors in the ledger's words, and the command classes that make them.

Typer checks the values it converts (whole numbers, choices, files) with its validation
library and words the refusals in that library's terms ("Input should be a valid integer,
unable to parse string as an integer"). Every command here is a `LedgerCommand` and every
group a `CommandGroup`: they catch a usage error where the command line is parsed, while the
value that was typed is still at hand, and raise it again as one `Misuse` line in the
ledger's words (`top: 'abc' is not a whole number of at least 1.`). The same classes keep
the help free of placeholders such as `<bool>`: a flag takes no value, and convert the plain
values without that library where they are plain (`PlainValues`), which a quick command
such as `ledger list --top 10` then never imports. The parts of Typer this takes that Typer
does not publish are named in `ledger.cli.typer_parts`.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar

import typer

from ledger.cli.typer_parts import (
    BadOptionUsage,
    BadParameter,
    Command,
    Context,
    MissingParameter,
    NoArgsIsHelpError,
    NoSuchOption,
    Parameter,
    RuntimeParam,
    TyperArgument,
    TyperCommand,
    TyperGroup,
    TyperParameter,
    UsageError,
    build_runtime_param,
    coerce_cli_choice,
)

Callback = TypeVar("Callback", bound=Callable[..., Any])
Parsed = TypeVar("Parsed")


class Misuse(UsageError):
    """A usage error in the ledger's words (exit 2)."""


class LedgerCommand(TyperCommand):
    """A command whose usage errors are the ledger's own lines."""

    def get_params(self, ctx: Context) -> list[Parameter]:
        return plainly_converted(plain_help(super().get_params(ctx)))

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        return worded(super().parse_args, ctx, args)


class CommandGroup(TyperGroup):
    """A group of commands whose usage errors are the ledger's own lines."""

    def get_params(self, ctx: Context) -> list[Parameter]:
        return plainly_converted(plain_help(super().get_params(ctx)))

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        return worded(super().parse_args, ctx, args)

    def resolve_command(
        self, ctx: Context, args: list[str]
    ) -> tuple[str | None, Command | None, list[str]]:
        if args and not args[0].startswith("-") and self.get_command(ctx, args[0]) is None:
            raise Misuse(
                f"no command {shown(args[0])}; `{ctx.command_path} --help` lists the commands.",
                ctx,
            )
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: Context) -> Any:
        """The group's own usage error, a missing command, in the ledger's words."""
        try:
            return super().invoke(ctx)
        except Misuse:
            raise
        except UsageError as failure:
            if failure.ctx is not ctx:
                raise
            raise Misuse(in_our_words(failure, ctx, []), ctx) from None


class Commands(typer.Typer):
    """A Typer app whose commands are `LedgerCommand`s."""

    def command(self, *args: Any, **kwargs: Any) -> Callable[[Callback], Callback]:
        kwargs.setdefault("cls", LedgerCommand)
        return super().command(*args, **kwargs)


class _Argument(TyperArgument):
    """An argument whose help shows its name (`PLAYER`), not a type (`<int range>`)."""

    def display_type_rich(self, ctx: Context) -> str | None:
        return None


def plain_help(params: list[Parameter]) -> list[Parameter]:
    """Parameters whose help holds no placeholders: a flag takes no value, so it shows none
    (Typer would show `<bool>`, also for the --help and completion flags it adds), and an
    argument shows its name alone."""
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
        if isinstance(param, TyperArgument):
            param.__class__ = _Argument
    return params


def plainly_converted(params: list[Parameter]) -> list[Parameter]:
    """Parameters whose values are converted by `PlainValues`."""
    for param in params:
        if isinstance(param, TyperParameter) and param._runtime_param is None:
            descriptor = param.type_descriptor
            param._runtime_param = PlainValues(descriptor.parameter_info, descriptor.annotation)
    return params


_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,18}")
"""A whole number typed as digits, which every converter reads alike."""
_NOT_PLAIN = object()


@dataclass(frozen=True)
class PlainValues(RuntimeParam):
    """Typer's conversion of a parameter's values, without its validation library for the
    plain ones: text, a whole number typed as digits within the bounds, one of the choices,
    what the option's own parser accepts. Any other value, and every refusal, is left to
    Typer's own conversion, so each value is converted or refused exactly as Typer does."""

    def _coerce_value(self, value: Any, param: TyperParameter, ctx: Context) -> Any:
        converted = _plain(value, param, ctx)
        if converted is _NOT_PLAIN:
            typers_own = build_runtime_param(param.type_descriptor)
            converted = typers_own._coerce_value(value, param=param, ctx=ctx)
        return converted


def _plain(value: Any, param: TyperParameter, ctx: Context) -> Any:
    """`value` converted, if it is plain; else `_NOT_PLAIN`."""
    descriptor = param.type_descriptor
    info, annotation = descriptor.parameter_info, descriptor.annotation
    if param.multiple or param.nargs != 1:
        return _NOT_PLAIN
    if info.parser is not None:
        try:
            return info.parser(value)
        except Exception:  # refused: Typer's own conversion words it
            return _NOT_PLAIN
    if annotation is str and type(value) is str:
        return value
    if annotation is int and type(value) is int:
        number = value
    elif annotation is int and isinstance(value, str) and _WHOLE_NUMBER.fullmatch(value):
        number = int(value)
    elif descriptor.choices is not None:
        try:
            return coerce_cli_choice(
                value, choices=descriptor.choices, case_sensitive=info.case_sensitive, ctx=ctx
            )
        except ValueError:
            return _NOT_PLAIN
    else:
        return _NOT_PLAIN
    within = (info.min is None or number >= info.min) and (info.max is None or number <= info.max)
    return number if within else _NOT_PLAIN


def worded(parse: Callable[[Context, list[str]], Parsed], ctx: Context, args: list[str]) -> Parsed:
    """`parse(ctx, args)`, a usage error raised again in the ledger's words."""
    given = list(args)
    try:
        return parse(ctx, args)
    except (Misuse, NoArgsIsHelpError):
        raise
    except UsageError as failure:
        raise Misuse(in_our_words(failure, ctx, given), ctx) from None


def in_our_words(failure: UsageError, ctx: Context, given: list[str]) -> str:
    """The ledger's one line for a usage error that Typer or Click raised."""
    command = f"`{ctx.command_path} --help`"
    if isinstance(failure, MissingParameter) and failure.param is not None:
        return f"missing {_name(failure.param)}; {command} shows an example."
    if isinstance(failure, BadParameter) and failure.param is not None:
        return _bad_value(failure, failure.param, _typed(ctx, given, failure.param))
    if isinstance(failure, NoSuchOption):
        return _no_such_option(failure, command)
    if isinstance(failure, BadOptionUsage):
        return _misused_option(ctx, failure.option_name, command)
    if isinstance(ctx.command, TyperGroup):
        return f"give a command; {command} lists them."
    extra = _extra_arguments(ctx, given)
    what = "argument" if len(extra) == 1 else "arguments"
    return f"unexpected {what} {', '.join(extra) or 'given'}; {command} shows what it takes."


def _name(param: Parameter) -> str:
    """An option as it is typed (`--top`), an argument by its name in the help (`PLAYER`)."""
    if param.param_type_name == "option":
        return max(param.opts, key=len)
    return param.metavar or (param.name or "").upper()


def _field(param: Parameter) -> str:
    """What a refused value is named by, as the ledger's own checks name it: `top`, `player`."""
    if param.param_type_name == "option":
        return max(param.opts, key=len).lstrip("-")
    return (param.name or "").replace("_", "-")


def _bad_value(failure: BadParameter, param: Parameter, typed: str | None) -> str:
    field = _field(param)
    value = "the value" if typed is None else shown(typed)
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is None:
        return f"{field}: {failure.message}"
    if descriptor.choices is not None:
        choices = ", ".join(
            str(c.value) if isinstance(c, Enum) else str(c) for c in descriptor.choices
        )
        return f"{field}: unknown {field} {value}; use one of {choices}."
    if descriptor.annotation is int:
        return f"{field}: {value} is not a whole number{_bounds(param)}."
    if descriptor.is_path and typed is not None:
        return f"{field}: {value} {_unusable(typed)}."
    if failure.__cause__ is None:
        return f"{field}: {failure.message}"
    return f"{field}: {value} is not a valid {field}."


def _bounds(param: Parameter) -> str:
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    if low is not None and high is not None:
        return f" from {low} to {high}"
    if low is not None:
        return f" of at least {low}"
    if high is not None:
        return f" of at most {high}"
    return ""


def _unusable(path: str) -> str:
    """Why a file given on the command line cannot be read."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return "does not exist"
    if stat.S_ISDIR(mode):
        return "is a folder, not a file"
    return "cannot be read"


def _no_such_option(failure: NoSuchOption, command: str) -> str:
    suggestion = ""
    if failure.possibilities:
        suggestion = f" (did you mean {' or '.join(sorted(failure.possibilities))}?)"
    return f"no option {shown(failure.option_name)}{suggestion}; {command} lists the options."


def _misused_option(ctx: Context, option: str, command: str) -> str:
    flag = any(
        option in param.opts and getattr(param, "is_flag", False) for param in ctx.command.params
    )
    if flag:
        return f"{option} takes no value: give it alone."
    return f"{option} needs a value; {command} shows an example."


def _typed(ctx: Context, given: list[str], param: Parameter) -> str | None:
    """The text typed for `param`, read again from the command line."""
    try:
        opts, _, _ = ctx.command.make_parser(ctx).parse_args(args=list(given))
    except UsageError:
        return None
    value = opts.get(param.name)
    if isinstance(value, list | tuple):
        value = value[-1] if value else None
    return None if value is None else str(value)


def _extra_arguments(ctx: Context, given: list[str]) -> list[str]:
    """The arguments left over once the command's own have taken theirs."""
    try:
        _, rest, _ = ctx.command.make_parser(ctx).parse_args(args=list(given))
    except UsageError:
        return []
    return [shown(each) for each in rest]


def shown(text: str) -> str:
    """Text quoted for an error line: `repr` escapes what is not printable (controls, line
    breaks, direction marks), so the line stays one line and drives no terminal."""
    return repr(text)
