"""The test suite's own layout: tests/ mirrors the source packages, shared code lives in
tests/helpers/, no test module imports another, and tests/ and bench/ do not import each
other (neither by name nor by loading a file)."""

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
BENCH = ROOT / "bench"
# test folders that mirror no source package: the suite's own checks, the faithfulness suite
OWN_FOLDERS = {TESTS, TESTS / "faithful"}
# ways to run a file's code without importing it by name
LOADERS = {"spec_from_file_location", "run_path", "SourceFileLoader", "exec_module"}


def packages():
    """The source packages, as pyproject.toml lists them."""
    with open(ROOT / "pyproject.toml", "rb") as fh:
        return tomllib.load(fh)["tool"]["setuptools"]["packages"]


def python_files(folder):
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def module_name(path):
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path):
    """The names `path` imports (`from a import b` gives a and a.b), the modules it
    asks pytest.importorskip or importlib.import_module for, and the file loaders it calls."""
    names, loaders = set(), set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: relative import"
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in ("importorskip", "import_module") and node.args \
                    and isinstance(node.args[0], ast.Constant):
                names.add(node.args[0].value)
            elif called in LOADERS:
                loaders.add(called)
    return names, loaders


def reaches(names, modules):
    """The modules of `modules` that `names` import: by their dotted name, or (a module,
    not a package) by its bare file name, as from a folder put on sys.path."""
    found = set()
    for module in modules:
        bare = module.rsplit(".", 1)[-1] if module in FILE_MODULES else None
        for name in names:
            if name == module or name.startswith(module + ".") or name == bare:
                found.add(module)
    return found


TEST_FILES = python_files(TESTS)
BENCH_FILES = python_files(BENCH)
FILE_MODULES = {module_name(p) for p in TEST_FILES + BENCH_FILES if p.name != "__init__.py"}
TEST_MODULES = {module_name(p) for p in TEST_FILES if p.name.startswith("test_")}
BENCH_MODULES = {module_name(p) for p in BENCH_FILES}


def test_no_test_module_imports_another_nor_bench():
    wrong = []
    for path in TEST_FILES:
        names, loaders = imported(path)
        where = path.relative_to(ROOT)
        wrong += [f"{where} imports {m} (shared code goes to tests/helpers/)"
                  for m in sorted(reaches(names, TEST_MODULES - {module_name(path)}))]
        wrong += [f"{where} imports {m}" for m in sorted(reaches(names, BENCH_MODULES | {"bench"}))]
        wrong += [f"{where} loads a file by its path ({c})" for c in sorted(loaders)]
    assert not wrong, "\n".join(wrong)


def test_bench_imports_nothing_of_the_tests():
    tests = {module_name(p) for p in TEST_FILES} | {"tests"}
    wrong = []
    for path in BENCH_FILES:
        names, loaders = imported(path)
        where = path.relative_to(ROOT)
        wrong += [f"{where} imports {m}" for m in sorted(reaches(names, tests))]
        wrong += [f"{where} loads a file by its path ({c})" for c in sorted(loaders)]
    assert not wrong, "\n".join(wrong)


def test_folders_mirror_the_source_packages():
    listed = packages()
    wrong = []
    for package in listed:
        folder = TESTS.joinpath(*package.split("."))
        here = list(folder.glob("test_*.py"))
        if any(other.startswith(package + ".") for other in listed):
            if here:
                wrong.append(f"{folder.relative_to(ROOT)}: the tests of {package}'s packages "
                             "go to their folders")
        elif not here:
            wrong.append(f"no {folder.relative_to(ROOT)}/ with the tests of {package}")
    mirrors = {TESTS.joinpath(*package.split(".")) for package in listed}
    wrong += [f"{path.relative_to(ROOT)}: not in the folder of a source package"
              for path in TEST_FILES
              if path.name.startswith("test_") and path.parent not in mirrors | OWN_FOLDERS]
    assert not wrong, "\n".join(wrong)


def test_codec_tests_need_no_emulator():
    """pc1360 depends on nothing of the project: a test that runs the machine or the CLI
    belongs with them (tests/emulator/machine/test_*_firmware.py check the codecs so)."""
    wrong = [f"{path.relative_to(ROOT)} imports {m}"
             for path in sorted((TESTS / "pc1360").glob("test_*.py"))
             for m in sorted(reaches(imported(path)[0], {"emulator", "tools"}))]
    assert not wrong, "\n".join(wrong)
