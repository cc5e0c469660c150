"""The write side: each service is one transaction the caller opens with `Ledger.transaction`."""
