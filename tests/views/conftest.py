"""What the browser tests of the site share: one Chromium a module, and a page a test whose
script errors fail it (see tests/helpers/browsing.py)."""

import pytest

from tests.helpers.browsing import chromium, watched


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


@pytest.fixture
def page(browser):
    with watched(browser) as opened:
        yield opened
