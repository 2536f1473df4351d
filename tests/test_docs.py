"""Citations of documents: every `docs/<name>.md §n.m` (or `docs/<name>.md, "Heading"`) in the
code, tests and the other Markdown files names a file of docs/ and a heading in it, every
.md file the code names is in the repository, and so is every file of the repository that
the code, the tests or the Markdown files (docs/ too) name by its path."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CODE = ("pc1360", "emulator", "tools", "tests", "bench")
# `docs/hardware.md §5.1, §5.2`: the file, then one or more sections
SECTIONS = re.compile(r"docs/(\w+)\.md((?:,? §\d+(?:\.\d+)*)+)")
NAMED = re.compile(r'docs/(\w+)\.md, "([^"]+)"')
MARKDOWN = re.compile(r"[\w./-]*\w\.md\b")
HEADING = re.compile(r"^#+ (.+)$", re.MULTILINE)
# `tests/emulator/machine/test_lcd.py`; NAME in a path stands for any name
PATH = re.compile(r"(?<![\w/.])(?:tests|emulator|pc1360|tools|bench|basic_src|docs)/"
                  r"[\w/.-]*\w\.(?:py|md|bas|csv|toml)\b")


def _sources():
    for package in CODE:
        yield from sorted((ROOT / package).rglob("*.py"))
    # not docs/ (checked on its own) nor a hidden folder such as the quick start's .venv
    yield from sorted(path for path in ROOT.rglob("*.md")
                      if not _skipped(path.relative_to(ROOT).parts[0]))


def _skipped(top):
    return top == "docs" or top.startswith(".")


def _headings(name):
    return HEADING.findall((ROOT / "docs" / f"{name}.md").read_text(encoding="utf-8"))


def _citations():
    """(where, doc name, section or heading) for each citation."""
    for path in _sources():
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(ROOT).as_posix()
        for match in SECTIONS.finditer(text):
            for section in re.findall(r"§[\d.]+", match.group(2)):
                yield where, match.group(1), section
        for match in NAMED.finditer(text):
            yield where, match.group(1), match.group(2)


def _cited(headings, cited):
    if cited.startswith("§"):
        return any(heading.split(" ", 1)[0] == cited for heading in headings)
    return cited in headings


def test_cited_sections_exist():
    missing = []
    for where, name, cited in _citations():
        if not (ROOT / "docs" / f"{name}.md").is_file():
            missing.append(f"{where}: docs/{name}.md does not exist")
        elif not _cited(_headings(name), cited):
            missing.append(f"{where}: docs/{name}.md has no heading {cited}")
    assert missing == []


def test_there_are_citations_to_check():
    assert len(list(_citations())) > 50


def test_code_names_only_markdown_files_of_the_repository():
    missing = []
    for package in CODE:
        for path in sorted((ROOT / package).rglob("*.py")):
            for named in MARKDOWN.findall(path.read_text(encoding="utf-8")):
                if not (ROOT / named).is_file():
                    missing.append(f"{path.relative_to(ROOT).as_posix()}: {named}")
    assert missing == []


def test_named_paths_exist():
    missing = []
    for path in [*_sources(), *sorted((ROOT / "docs").glob("*.md"))]:
        for named in PATH.findall(path.read_text(encoding="utf-8")):
            if "NAME" not in named and not (ROOT / named).is_file():
                missing.append(f"{path.relative_to(ROOT).as_posix()}: {named}")
    assert missing == []
