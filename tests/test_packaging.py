"""The package as users get it: a built wheel that extracts outside the checkout, the `dev`
extra that names what training, evaluation and the bench need, and a test script that fails
when it ran nothing."""

from __future__ import annotations

import json
import os
import re
import shutil
import site
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from datautil import write_labelled_page

from newscrawl.cli import main

REPO = Path(__file__).resolve().parent.parent
BUILD_INPUTS = ("pyproject.toml", "setup.py", "MANIFEST.in", "requirements.txt", "README.md",
                "newscrawl", "models")
PARAGRAPHS = [
    "The harbour authority said on Tuesday that the new breakwater would be finished by "
    "spring, two years later than first planned, after storms damaged the wall twice.",
    "Engineers told the council that the foundations had shifted by several centimetres "
    "during the January gales, and that divers would survey the seabed before work resumed.",
    "Fishing crews, who have moored in the outer basin since the works began, asked for "
    "compensation for the longer trips and the damage to nets caught on the loose blocks.",
]
PAGE = ("<!DOCTYPE html><html lang='en'><head><title>Harbour wall to open two years late"
        "</title></head><body><nav><a href='/'>Home</a> <a href='/news'>News</a></nav>"
        "<article><h1>Harbour wall to open two years late</h1>"
        + "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
        + "</article><footer>© The Gazette</footer></body></html>")


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None
        ) -> subprocess.CompletedProcess:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False, env=env)
    assert proc.returncode == 0, f"{cmd[:4]} failed:\n{proc.stdout}\n{proc.stderr}"
    return proc


@pytest.mark.parametrize("compiler", ["cc", "none"])
def test_built_wheel_extracts_outside_the_checkout(tmp_path: Path, compiler: str) -> None:
    """`pip install .` (not editable) must carry the model: build the wheel from a copy of
    the sources, install it into a fresh venv whose only other path is this environment's
    site-packages (the dependencies, offline), and run its `newscrawl extract` elsewhere.
    Built where no C compiler works (``CC=false``), the wheel has no compiled walks and
    extracts the same page in Python."""
    env = {**os.environ, "CC": "false"} if compiler == "none" else None
    src = tmp_path / "src"
    src.mkdir()
    for name in BUILD_INPUTS:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, src / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy2(source, src / name)
    wheels = tmp_path / "wheels"
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-index",
         "--no-build-isolation", "-w", str(wheels), str(src)], tmp_path, env)
    (wheel,) = wheels.glob("newscrawl-*.whl")
    # a wheel whose module was not compiled files the package under .data/purelib/
    names = {re.sub(r"^newscrawl-[^/]+\.data/(?:pure|plat)lib/", "", n)
             for n in zipfile.ZipFile(wheel).namelist()}
    shipped = {p.name for p in (REPO / "models").iterdir() if p.is_file()}
    assert shipped and {f"newscrawl/models/{n}" for n in shipped} <= names
    assert "newscrawl/article.schema.json" in names
    compiled = any(n.startswith("newscrawl/extraction/_cwalk") and n.endswith(".so")
                   for n in names)
    assert compiled == (compiler == "cc")
    metadata = zipfile.ZipFile(wheel).read(
        next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "Requires-Dist: xgboost-cpu==" in metadata
    assert re.search(r"Requires-Dist: scikit-learn==\S+; extra == \"dev\"", metadata)

    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp_path)
    python = venv / "bin" / "python"
    venv_site = Path(run([str(python), "-c", "import sysconfig; print(sysconfig.get_path("
                          "'purelib'))"], tmp_path).stdout.strip())
    # plain paths: the .pth files there (this checkout's editable install) are not processed
    (venv_site / "dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
         "--no-deps", "--no-index", str(wheel)], tmp_path)

    where = run([str(python), "-c", "import newscrawl.extraction.extractor as e; "
                 "print(e.__file__); print(e.DEFAULT_MODEL); "
                 "from newscrawl.extraction.compiled import CWALK; print(CWALK is not None)"],
                tmp_path).stdout.split()
    assert all(Path(p).is_relative_to(venv_site) for p in where[:2]), where
    assert where[2] == str(compiler == "cc")

    page = tmp_path / "page.html"
    page.write_text(PAGE, "utf-8")
    out = run([str(venv / "bin" / "newscrawl"), "extract", str(page), "--format", "json",
               "--url", "https://gazette.example/2025/03/04/harbour-wall"], tmp_path).stdout
    (article,) = [json.loads(line) for line in out.splitlines()]
    assert article["model_version"] == "nodes-v1"
    assert article["title"] == "Harbour wall to open two years late"
    assert all(p in article["text"] for p in PARAGRAPHS)
    assert "© The Gazette" not in article["text"]


def pins(lines: list[str]) -> set[str]:
    return {line.split("#")[0].strip() for line in lines
            if line.split("#")[0].strip() and not line.startswith("-")}


def test_dev_extra_pins_what_requirements_dev_pins() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]
    dev = pins((REPO / "requirements-dev.txt").read_text("utf-8").splitlines())
    assert set(project["optional-dependencies"]["dev"]) == dev


@pytest.mark.parametrize(("command", "module"), [("train", "sklearn"), ("evaluate", "sklearn"),
                                                 ("bench", "trafilatura")])
def test_dev_command_without_dev_packages_names_what_to_install(
        command: str, module: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    write_labelled_page(tmp_path, "0001", PAGE, "\n".join(PARAGRAPHS),
                        "https://gazette.example/2025/03/04/harbour-wall")
    for name in [m for m in sys.modules if m == module or m.startswith(module + ".")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, module, None)  # `import module` raises, as if missing
    extra = ["--out", str(tmp_path / "m.ubj")] if command == "train" else []

    assert main([command, "--data", str(tmp_path), *extra]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    package = {"sklearn": "scikit-learn"}.get(module, module)
    assert f"newscrawl {command}: needs {package}" in err
    assert "requirements-dev.txt" in err and "newscrawl[dev]" in err


def test_a_wrong_data_directory_or_model_name_is_one_line_not_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["evaluate", "--data", str(tmp_path / "missing"), "--no-trafilatura"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"newscrawl evaluate: {tmp_path / 'missing'}: no such data directory"
    with pytest.raises(SystemExit) as stop:
        main(["evaluate", "--data", str(tmp_path), "--models", "xgboost,xgbost"])
    assert stop.value.code == 2
    assert "unknown model 'xgbost'; choose from xgboost" in capsys.readouterr().err


def test_metadata_scores_without_trafilatura_name_what_to_install(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Not trafilatura scored 0.000 on every field, as a peer that found nothing would be."""
    from newscrawl.evaluation import metadata_eval

    write_labelled_page(tmp_path, "0001", PAGE, "\n".join(PARAGRAPHS),
                        "https://gazette.example/2025/03/04/harbour-wall")
    for name in [m for m in sys.modules if m == "trafilatura" or m.startswith("trafilatura.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "trafilatura", None)

    assert metadata_eval.main(["--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "needs trafilatura" in err
    assert main(["evaluate", "--metadata", "--data", str(tmp_path)]) == 2
    assert "newscrawl evaluate: needs trafilatura" in capsys.readouterr().err
    # without the peer, ours alone
    assert metadata_eval.main(["--data", str(tmp_path), "--no-trafilatura"]) == 0


def test_test_script_fails_when_it_collects_no_tests() -> None:
    proc = subprocess.run([str(REPO / "scripts" / "test.sh"), "tests/test_packaging.py",
                           "-k", "no_test_has_this_name"], cwd=REPO, capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 5, proc.stdout + proc.stderr
