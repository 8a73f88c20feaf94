"""Build hook: the wheel carries the node model, and the feature walk's C module when it can
be compiled (the rest of the metadata is pyproject.toml).

The model files stay in the top-level ``models/``, where ``newscrawl train`` writes them and
a checkout reads them; a non-editable build copies them into the package as
``newscrawl/models/``, where ``newscrawl.extraction.shipped`` looks first, so ``pip install
.`` gives a package that extracts without the checkout.

``newscrawl/extraction/_cwalk.pyx`` (the tree walks, the stage-2 columns) is compiled against
the lxml and numpy of the build environment (pyproject.toml pins them as the runtime does),
``_forest.pyx`` (the node model's trees) against numpy. Both are optional
(``BuildOptionalExtensions``): without Cython or a C compiler the package installs without
them, the walks run in Python (``extraction/compiled.py``) and the trees in XGBoost, with the
same results, more slowly (each compiled function's docstring says what it saves).
"""

from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
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


class BuildOptionalExtensions(build_ext):
    """A module that fails to compile is left out, with a warning, in every kind of build
    (setuptools' ``optional`` covers a wheel's build, but an editable install then still
    copied the missing file and failed)."""

    def build_extensions(self) -> None:
        self.check_extensions_list(self.extensions)
        for ext in list(self.extensions):
            try:
                self.build_extension(ext)
            except Exception as exc:  # noqa: BLE001 - any compiler failure: Python serves
                self.warn(f"{ext.name} not built ({exc}); newscrawl reads trees in Python")
                self.extensions.remove(ext)


def extensions() -> list[Extension]:
    try:
        import lxml
        import numpy
        from Cython.Build import cythonize
    except ImportError:
        return []
    walk = Extension(
        "newscrawl.extraction._cwalk", ["newscrawl/extraction/_cwalk.pyx"],
        include_dirs=[*lxml.get_include(), numpy.get_include()],
        define_macros=[("NEWSCRAWL_LXML_VERSION", f'"{lxml.__version__}"'),
                       ("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")])
    forest = Extension(
        "newscrawl.extraction._forest", ["newscrawl/extraction/_forest.pyx"],
        include_dirs=[numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")])
    return cythonize([walk, forest], quiet=True)


setup(cmdclass={"build_py": BuildWithModels, "build_ext": BuildOptionalExtensions},
      ext_modules=extensions())
