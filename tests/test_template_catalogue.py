"""Every ``{% translate %}`` literal of every template has its French and Italian translation.

Django looks a template literal with a ``%`` up under its escaped form (``%%(n)s``, see
``django.template.base.Variable``), so a catalogue entry written as in Python code
(``%(n)s``) is never found and the page shows English. This test reads the templates and the
compiled catalogues Django uses, and names every literal without a translation."""

import gettext
import re
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
LITERAL = re.compile(r"""\{%\s*(?:translate|trans)\s+(['"])(.*?)\1(?!\s+context)""")


def catalogue(language: str) -> dict[str, str]:
    path = ROOT / "locale" / language / "LC_MESSAGES" / "django.mo"
    with path.open("rb") as compiled:
        return gettext.GNUTranslations(compiled)._catalog


@pytest.mark.parametrize("language", ["fr", "it"])
def test_every_template_literal_is_in_the_catalogue_under_the_key_django_looks_up(language):
    known = catalogue(language)
    missing = []
    for template in sorted((ROOT / "templates").rglob("*.html")):
        for match in LITERAL.finditer(template.read_text(encoding="utf-8")):
            key = match.group(2).replace("%", "%%")
            if not known.get(key):
                missing.append(f"{template.relative_to(ROOT)}: {match.group(2)!r}")
    assert not missing, missing
