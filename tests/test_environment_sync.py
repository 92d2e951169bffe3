"""environment.yml (conda users) lists exactly the dependencies and ranges of pyproject.toml."""

import tomllib

import yaml
from packaging.requirements import Requirement


def _normalise(name: str) -> str:
    return name.lower().replace("_", "-")


def pyproject_requirements(repo_root):
    project = tomllib.loads((repo_root / "pyproject.toml").read_text())["project"]
    reqs = project["dependencies"] + project["optional-dependencies"]["test"]
    return {_normalise(r.name): r.specifier for r in map(Requirement, reqs)}


def conda_requirements(repo_root):
    env = yaml.safe_load((repo_root / "environment.yml").read_text())
    out = {}
    for dep in env["dependencies"]:
        if isinstance(dep, dict) or dep.split(">")[0].split("=")[0] in ("python", "pip"):
            continue
        r = Requirement(dep)
        out[_normalise(r.name)] = r.specifier
    return out


def test_environment_yml_matches_pyproject(repo_root):
    assert conda_requirements(repo_root) == pyproject_requirements(repo_root)


def test_environment_yml_python_and_package(repo_root):
    env = yaml.safe_load((repo_root / "environment.yml").read_text())
    requires = tomllib.loads((repo_root / "pyproject.toml").read_text())["project"]["requires-python"]
    assert f"python{requires}" in env["dependencies"]
    pip_section = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert "--editable ." in pip_section
