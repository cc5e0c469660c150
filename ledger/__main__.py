"""The `ledger` command (`python -m ledger`, and the `ledger` script): the command line,
with Ctrl-C while the ledger's modules load ended by one line, as `ledger.cli.interrupts`
ends it once they have."""

import gc
import sys


def main() -> None:
    gc.disable()  # while the command line loads: see `ledger.cli.main`
    try:
        from ledger.cli import main as command_line
    except KeyboardInterrupt:
        eval("None")  # as `interrupts.exits_by_its_code`: the exit code, not SIGINT, ends it
        print("error: interrupted; nothing was written.", file=sys.stderr)
        sys.exit(130)
    command_line()


if __name__ == "__main__":
    main()
