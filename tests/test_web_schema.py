"""The API answers as its own OpenAPI description says (schemathesis, a bounded number of
generated requests per route), on the demo ledger, on both backends: no 5xx, every status,
content type and body one the description declares, every request the description admits
answered (a 2xx, or a 404 for what the ledger does not hold) and every request it does not
admit refused.

The desk's routes (`/api/v1/desk/...`, a signed-in account's) are described too, and
exercised without a token: whatever a request that the description admits holds, it is
answered 401 with the error object, so the gate comes before anything is read of it. With
a token they are exercised by `tests/test_report_pages.py`, where generated uploads and
matches would be refused by the ledger's own checks, which no schema states.

A few rules of the ledger cross parameters, which a JSON schema cannot state; the requests
that break them are left out of the generated ones (`_states_no_rule_across_parameters`),
and each is refused with its sentence in `tests/test_web.py`.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings

from ledger.core.domain import Pool
from ledger.core.names import name_words
from ledger.services.demo import build_demo
from ledger.web import api, create_app, desk_api

from builders import NOW

EXAMPLES = 10
"""Generated requests per route and mode: enough to meet each parameter's edges, quick on
both backends."""


def _states_no_rule_across_parameters(case: schemathesis.Case) -> bool:
    """False for a request that breaks a rule no schema states: a list asked for by a
    period, a version or the live list together with a day, or the live list with a
    version (`queries.ListRequest`), and a search without a letter or digit in it."""
    query = case.query or {}
    which = (case.path_parameters or {}).get("which")
    day, version = query.get("as_of"), query.get("version")
    if case.operation.path == "/api/v1/lists/{pool}/{which}":
        dated = day not in (None, "") and (which != "latest" or version is not None)
        return not dated and not (which == "live" and version is not None)
    if case.operation.path == "/api/v1/search":
        return bool(name_words(str(query.get("q", ""))))
    return True


@pytest.mark.parametrize("mode", list(schemathesis.GenerationMode), ids=str)
def test_the_api_answers_as_it_is_described(
    database_url: str, mode: schemathesis.GenerationMode
) -> None:
    build_demo(database_url, Pool.STANDARD, replace=False, now=NOW)
    description = schemathesis.openapi.from_asgi("/api/v1/openapi.json", create_app(database_url))
    checked = 0
    for operation in description.get_all_operations():
        route = operation.ok()
        checked += 1
        if mode is schemathesis.GenerationMode.NEGATIVE and not any(route.iter_parameters()):
            continue  # no parameter to give a wrong value
        cases = route.as_strategy(generation_mode=mode).filter(_states_no_rule_across_parameters)

        @given(case=cases)
        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def answers_as_described(case: schemathesis.Case) -> None:
            answer = case.call_and_validate()
            desk = case.operation.path.startswith("/api/v1/desk/")
            if desk and mode is schemathesis.GenerationMode.POSITIVE:
                assert answer.status_code == 401, answer.text

        answers_as_described()
    assert checked == len(api.router.routes) + len(desk_api.router.routes)
