"""Build script: the rules kernels compiled with mypyc when the machine can, else pure Python.

Everything else (metadata, dependencies) is in ``pyproject.toml``. The compiled build is chosen
when mypyc imports (``mypy`` is a build requirement), a C compiler is on the PATH and
``LUDICA_PURE`` is not ``1``; when any of these is missing, or the compilation fails, the package
installs as pure Python without complaint (``ludica --version`` says which build runs).

Which modules are compiled is :data:`ludica._build.kernel_sources` (the rules core and the five
games, without their web faces, statistics and bot plugins); ``python setup.py build_ext
--inplace`` (what ``scripts/setup`` runs) puts the compiled modules beside their sources and writes
``ludica/_compiled.json``, from which an import notices a source edited since the build. With
them it builds the hand-written C extensions of :data:`ludica._build.C_EXTENSIONS` (the observation
encoder's, ``ludica/env/_tensorc.c``), whose sources the stamp fingerprints too.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def _load_build_helpers():  # type: ignore[no-untyped-def]
    """``ludica/_build.py`` without importing the package (its dependencies may be missing)."""
    spec = importlib.util.spec_from_file_location("_ludica_build", ROOT / "ludica" / "_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


helpers = _load_build_helpers()


def _why_pure() -> str | None:
    if os.environ.get("LUDICA_PURE") == "1":
        return "LUDICA_PURE=1"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed"
    return None


class KernelBuild(build_ext):
    """build_ext that falls back to pure Python when compiling fails, and stamps what it built."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # a broken compiler: the pure package still works
            print(f"ludica: compiling the kernels failed ({exc}); installing pure Python", file=sys.stderr)
            for ext in self.extensions:  # never half a build: a module without its group fails to import
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            self.extensions = []
            return
        if self.extensions:
            target = ROOT if self.inplace else Path(self.build_lib)
            helpers.write_stamp(target / "ludica" / helpers.STAMP, COMPILED)


COMPILED: dict = {}  # type: ignore[type-arg]
"""The fingerprints of the sources as mypyc read them (what the stamp records)."""


def _extensions() -> list:  # type: ignore[type-arg]
    reason = _why_pure()
    if reason is not None:
        print(f"ludica: building pure Python ({reason})", file=sys.stderr)
        return []
    from mypyc.build import mypycify

    groups = [
        ([str(path.relative_to(ROOT)) for path in paths], f"ludica_kernels_{name}")
        for name, paths in helpers.kernel_groups(ROOT).items()
    ]
    sources = [source for paths, _ in groups for source in paths]
    COMPILED.update(helpers.fingerprints(ROOT))
    try:
        # one shared library per group, top level (ludica_kernels_<group>__mypyc.*.so): mypyc
        # derives the compiled modules' __file__ from that place
        kernels = mypycify(sources, opt_level="3", separate=groups, verbose=False)
    except BaseException as exc:  # mypy refused a module: pure Python still works
        print(f"ludica: mypyc refused the kernels ({exc}); building pure Python", file=sys.stderr)
        return []
    # the hand-written C extensions (the observation encoder's fast path), built and stamped with them
    extensions = [
        Extension(name, [f"ludica/{rel}"], extra_compile_args=["-O2"]) for name, rel in helpers.C_EXTENSIONS.items()
    ]
    return [*kernels, *extensions]


setup(ext_modules=_extensions(), cmdclass={"build_ext": KernelBuild})
