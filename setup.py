"""Install the three top-level folders as one package, ``tablezoo``.

``envs/``, ``agents/`` and ``training/`` stay where they are in the repository and install as
``tablezoo.envs``, ``tablezoo.agents`` and ``tablezoo.training`` under an implicit namespace
``tablezoo``, so no generic top-level module lands in a user's environment. The metadata is in
``pyproject.toml``; only the package list, which setuptools cannot prefix by itself, is here.
"""

from setuptools import find_namespace_packages, setup

FOLDERS = ("envs", "agents", "training")


def packages(folder: str) -> list[str]:
    """``tablezoo.FOLDER`` and every folder below it (data folders too, for their files)."""
    below = find_namespace_packages(folder, exclude=["__pycache__", "*.__pycache__"])
    return [f"tablezoo.{folder}"] + [f"tablezoo.{folder}.{name}" for name in below]


setup(
    packages=[name for folder in FOLDERS for name in packages(folder)],
    package_dir={f"tablezoo.{folder}": folder for folder in FOLDERS},
)
