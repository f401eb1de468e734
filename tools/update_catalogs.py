"""Extract every user-facing string from bot/ and handlers/ and merge it into the Swahili catalog.

Entries are sorted by msgid and located by file only (no line numbers), so that moving code
does not rewrite the catalog. Run `python tools/update_catalogs.py` after changing strings, then translate the new entries in
handlers/locales/sw/LC_MESSAGES/karata.po (game words: docs/GLOSSARY.md). The test suite fails
while any string lacks a Swahili translation.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
# `_.pgettext(context, message)` and `pN_(context, message)` carry a msgctxt: the same English
# words may need different Swahili on a button and inside a sentence.
KEYWORDS = {
    "_": None,
    "N_": None,
    "plural": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "pN_": ((1, "c"), 2),
}
SOURCES = ("bot", "handlers")
PO_PATH = ROOT / "handlers" / "locales" / "sw" / "LC_MESSAGES" / "karata.po"
POT_PATH = ROOT / "handlers" / "locales" / "karata.pot"


def extract() -> Catalog:
    template = Catalog(project="karata", msgid_bugs_address="", charset="utf-8")
    for source in SOURCES:
        for filename, lineno, message, comments, context in extract_from_dir(
            ROOT / source, method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)
        ):
            template.add(message, None, [(f"{source}/{filename}", lineno)], auto_comments=comments, context=context)
    return template


def _translated(string: str | tuple[str, ...]) -> bool:
    """A plural entry is translated only when every one of its forms is."""
    return all(string) if isinstance(string, tuple) else bool(string)


def main() -> int:
    template = extract()
    with POT_PATH.open("wb") as handle:
        write_po(handle, template, width=100, sort_output=True, include_lineno=False)
    if PO_PATH.exists():
        with PO_PATH.open("rb") as handle:
            catalog = read_po(handle, locale="sw")
    else:
        catalog = Catalog(locale="sw", project="karata", charset="utf-8")
    catalog.update(template, no_fuzzy_matching=True)
    PO_PATH.parent.mkdir(parents=True, exist_ok=True)
    with PO_PATH.open("wb") as handle:
        write_po(
            handle, catalog, width=100, omit_header=False, ignore_obsolete=True, sort_output=True, include_lineno=False
        )
    missing = [message.id for message in catalog if message.id and not _translated(message.string)]
    print(f"{len(catalog)} messages, {len(missing)} without Swahili")
    return 0


if __name__ == "__main__":
    sys.exit(main())
