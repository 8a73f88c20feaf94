"""Build hook: the wheel carries the node model (the rest of the metadata is pyproject.toml).

The model files stay in the top-level ``models/``, where ``newscrawl train`` writes them and
a checkout reads them; a non-editable build copies them into the package as
``newscrawl/models/``, where ``newscrawl.extraction.shipped`` looks first, so ``pip install
.`` gives a package that extracts without the checkout.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithModels(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:  # an editable install reads the checkout's models/
            return
        target = Path(self.build_lib) / "newscrawl" / "models"
        self.mkpath(str(target))
        for path in sorted(Path("models").iterdir()):
            if path.is_file():
                self.copy_file(str(path), str(target / path.name))


setup(cmdclass={"build_py": BuildWithModels})
