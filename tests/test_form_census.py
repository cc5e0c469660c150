"""The census of every form of the site's templates, each with the browser test that fills
it and clicks its button as a person does (issue 44: "the browser tests must submit each
form of the site as a person does"). It reads files alone, so it runs where no browser is."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).parent
TEMPLATES = TESTS.parent / "ledger" / "web" / "templates"
DESK = "test_browser_desk.py::"

PUBLIC_FORMS = "test_browser.py::test_each_form_submitted_as_a_person_fills_it_shows_its_page"
REPORT_ROUND = (
    "test_browser_reports.py::test_a_report_goes_from_the_organiser_to_the_published_list"
)


FORM_TESTS = {
    "base.html search": PUBLIC_FORMS,
    "search.html /search": PUBLIC_FORMS,
    "list.html list-filter": PUBLIC_FORMS,
    "rank_history.html /reports/*/rank-history": PUBLIC_FORMS,
    "sign_in.html sign-in": (
        f"{DESK}test_an_account_disabled_on_the_desk_is_signed_out_and_cannot_sign_in"
    ),
    "password.html set-password": (
        f"{DESK}test_an_account_made_on_the_desk_sets_its_password_and_signs_in"
    ),
    "desk.html sign-out": f"{DESK}test_signing_out_ends_the_session_on_the_server",
    "accounts.html add-account": (
        f"{DESK}test_an_account_made_on_the_desk_sets_its_password_and_signs_in"
    ),
    "accounts.html /desk/accounts/*/role": (
        f"{DESK}test_an_officer_makes_an_organiser_an_officer_and_back"
    ),
    "accounts.html /desk/accounts/*/disable": (
        f"{DESK}test_an_account_disabled_on_the_desk_is_signed_out_and_cannot_sign_in"
    ),
    "tokens.html add-token": (
        f"{DESK}test_a_token_made_on_the_desk_opens_the_api_until_it_is_revoked"
    ),
    "tokens.html /desk/tokens/*/revoke": (
        f"{DESK}test_a_token_made_on_the_desk_opens_the_api_until_it_is_revoked"
    ),
    "queue.html queue-filter": f"{DESK}test_the_queue_filter_submitted_as_a_person_fills_it",
    "upload.html upload": REPORT_ROUND,
    "report_macros.html /desk/reports/*/warnings/*/acknowledge": REPORT_ROUND,
    "report.html new-version": REPORT_ROUND,
    "report.html submit": REPORT_ROUND,
    "report.html accept": REPORT_ROUND,
    "report.html return": f"{DESK}test_an_officer_returns_a_report_with_a_reason",
    "report.html reject": f"{DESK}test_an_officer_rejects_a_report_and_the_public_sees_why",
    "report.html withdraw": f"{DESK}test_an_organiser_withdraws_their_report",
    "desk_periods.html /desk/periods/close": REPORT_ROUND,
}
"""Every form of the templates, by its template and its id (or, without one, its action with
`*` for each value the template fills in), and the browser test that fills it and clicks
its button."""


def _forms() -> set[str]:
    found = set()
    for template in sorted(TEMPLATES.glob("*.html")):
        for tag in re.findall(r"<form\b[^>]*>", template.read_text()):
            named = re.search(r'\bid="([^"]+)"', tag) or re.search(r'\baction="([^"]+)"', tag)
            assert named is not None, (template.name, tag)
            found.add(f"{template.name} {re.sub(r'{{[^}]*}}', '*', named.group(1))}")
    return found


def test_every_form_of_the_templates_is_submitted_by_a_browser_test() -> None:
    assert _forms() == FORM_TESTS.keys()
    for test in FORM_TESTS.values():
        module, _, name = test.partition("::")
        assert f"\ndef {name}(" in (TESTS / module).read_text(), test
