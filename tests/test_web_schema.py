"""The API answers as its own OpenAPI description says (schemathesis, a bounded number of
generated requests per route), on the demo ledger, on both backends: no 5xx, and every
status, content type and body one the description declares. A request the description
admits may still be refused with a 400 (a month 13, a search of no words, a period and a
day together): rules of the ledger that a JSON schema does not say, so that check is left
out."""

from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from ledger.core.domain import Pool
from ledger.services.demo import build_demo
from ledger.web import api, create_app

from builders import NOW

EXAMPLES = 10
"""Generated requests per route: enough to meet each parameter's edges, quick on both."""


def test_the_api_answers_as_it_is_described(database_url: str) -> None:
    build_demo(database_url, Pool.STANDARD, replace=False, now=NOW)
    description = schemathesis.openapi.from_asgi("/api/v1/openapi.json", create_app(database_url))
    checked = 0
    for operation in description.get_all_operations():
        route = operation.ok()

        @given(case=route.as_strategy())
        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def answers_as_described(case: schemathesis.Case) -> None:
            case.call_and_validate(excluded_checks=[positive_data_acceptance])

        answers_as_described()
        checked += 1
    assert checked == len(api.router.routes)
