"""The `ledger` command (`python -m ledger`, and the `ledger` script): the command line,
with Ctrl-C while the ledger's modules load ended by one line, as `ledger.cli.interrupts`
ends it once they have."""

from __future__ import annotations

import signal
import sys

from ledger.storage import interpreter


class _Loading:
    """The Ctrl-C handler while the command line loads. It remembers that an interrupt
    arrived: one raised where Python cannot pass it on (a weak reference's callback in the
    import system) is lost but for this, and the command's watch, which takes over from it
    (`ledger.cli.interrupts.reported`), ends the command at once."""

    arrived = False

    def __call__(self, _signal: int, _frame: object) -> None:
        self.arrived = True
        raise KeyboardInterrupt


def _quiet_interrupts(unraisable: sys.UnraisableHookArgs) -> None:
    """An interrupt that Python could not raise is said by the command's own line, not as
    the traceback Python prints for it."""
    if not isinstance(unraisable.exc_value, KeyboardInterrupt):
        sys.__unraisablehook__(unraisable)


def main() -> None:
    interpreter.load_without_collector()  # see `ledger.storage.interpreter`
    sys.unraisablehook = _quiet_interrupts
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:  # e.g. a background job
        signal.signal(signal.SIGINT, _Loading())
    try:
        from ledger.cli import main as command_line

        command_line()  # from here on its own watch (`ledger.cli.interrupts`) says what was done
    except KeyboardInterrupt:  # before that watch began: nothing was written
        interpreter.exit_with_code()  # the exit code, not SIGINT, ends it
        print("error: interrupted; nothing was written.", file=sys.stderr)
        sys.exit(130)


if __name__ == "__main__":
    main()
