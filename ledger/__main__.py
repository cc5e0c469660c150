"""`python -m ledger`: the same command line as the `ledger` script."""

from ledger.cli import main

main()
