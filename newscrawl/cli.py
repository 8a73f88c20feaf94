"""``newscrawl`` / ``python -m newscrawl``: extract, train, evaluate, bench, demo.

Each subcommand lives in its own module exposing ``add_arguments(parser)`` and
``run(args) -> int``; this file only dispatches, so importing the CLI stays cheap and the
crawler never imports training code.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = {
    "extract": ("newscrawl.commands.extract", "extract the article of files, globs, .gz or stdin"),
    "train": ("newscrawl.training.cli", "label pages, train the node model, write model + card"),
    "train-pages": ("newscrawl.training.pages", "train the article-or-not page classifier"),
    "evaluate": ("newscrawl.evaluation.evaluate", "cross-validate or score a model on a data set"),
    "bench": ("newscrawl.evaluation.bench", "time each stage per page against trafilatura"),
    "demo": ("newscrawl.demo", "serve the bundled sample site and crawl it offline"),
    "dataset": ("newscrawl.dataset.cli", "deduplicated Parquet splits with a card from feeds"),
}

# What training, evaluation and the bench import beyond requirements.txt (the demo's
# environment): the `dev` extra, i.e. requirements-dev.txt.
DEV_PACKAGES = {"sklearn": "scikit-learn", "scipy": "scipy", "trafilatura": "trafilatura"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="newscrawl", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    argv = sys.argv[1:] if argv is None else argv
    chosen = argv[0] if argv and argv[0] in COMMANDS else None
    for name, (module_name, help_text) in COMMANDS.items():
        sp = sub.add_parser(name, help=help_text)
        if name == chosen:
            module = importlib.import_module(module_name)
            module.add_arguments(sp)
            sp.set_defaults(_run=module.run)
    args = parser.parse_args(argv)
    try:
        return int(args._run(args) or 0)
    except FileNotFoundError as exc:  # a data directory or model file named wrongly
        print(f"newscrawl {args.command}: {exc}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:
        package = DEV_PACKAGES.get((exc.name or "").partition(".")[0])
        if package is None:
            raise
        print(f"newscrawl {args.command}: needs {package}, which the runtime requirements do "
              "not install; install the development ones: pip install -r requirements-dev.txt "
              "(or pip install 'newscrawl[dev]')", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
