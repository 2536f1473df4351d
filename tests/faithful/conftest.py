"""The faithfulness suite's summary line at the end of a pytest run."""

SUITE = "test_faithful.py::"
KINDS = {"test_builtin_matches_reference": "cases on the built-in engine",
         "test_corpus_engines_agree": "corpus runs on both engines",
         "test_firmware_reproduces_reference": "firmware re-checks"}


def pytest_terminal_summary(terminalreporter):
    counts = {}
    for outcome in ("passed", "failed", "xfailed", "xpassed", "skipped"):
        for report in terminalreporter.stats.get(outcome, []):
            nodeid = getattr(report, "nodeid", "")
            if SUITE not in nodeid or getattr(report, "when", "call") not in ("call", "setup"):
                continue
            test = nodeid.split(SUITE, 1)[1].split("[", 1)[0]
            if test in KINDS and (outcome != "skipped" or report.when == "setup" or True):
                counts.setdefault(test, {}).setdefault(outcome, 0)
                counts[test][outcome] += 1
    if not counts:
        return
    terminalreporter.section("faithfulness")
    for test, label in KINDS.items():
        if test in counts:
            c = counts[test]
            total = sum(c.values())
            parts = [f"{c.get('passed', 0)} pass", f"{c.get('xfailed', 0)} known failures"]
            for extra in ("failed", "xpassed", "skipped"):
                if c.get(extra):
                    parts.append(f"{c[extra]} {extra}")
            terminalreporter.write_line(f"{total} {label}: " + ", ".join(parts))
