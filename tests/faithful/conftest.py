"""The faithfulness suite's summary at the end of a pytest run: how many cases pass on
the built-in engine, how many are known failures (known_failures.txt)."""

SUITE = "test_faithful.py::"
KINDS = {"test_builtin_matches_reference": "cases on the built-in engine",
         "test_corpus_engines_agree": "corpus runs compared on both engines",
         "test_firmware_reproduces_reference": "firmware re-checks of stored references"}
LABELS = {"passed": "pass", "xfailed": "known failures", "failed": "FAILED",
          "xpassed": "XPASS (remove from known_failures.txt)", "skipped": "skipped"}


def pytest_terminal_summary(terminalreporter):
    outcomes = {}
    for outcome in LABELS:
        for report in terminalreporter.stats.get(outcome, []):
            nodeid = getattr(report, "nodeid", "")
            if SUITE in nodeid:
                outcomes.setdefault(nodeid, outcome)
    counts = {}
    for nodeid, outcome in outcomes.items():
        test = nodeid.split(SUITE, 1)[1].split("[", 1)[0]
        if test in KINDS:
            counts.setdefault(test, {}).setdefault(outcome, 0)
            counts[test][outcome] += 1
    if not counts:
        return
    terminalreporter.section("faithfulness")
    for test, label in KINDS.items():
        if test in counts:
            c = counts[test]
            parts = [f"{c[o]} {LABELS[o]}" for o in LABELS if c.get(o)]
            terminalreporter.write_line(f"{sum(c.values())} {label}: " + ", ".join(parts))
