"""setuptools' build backend, with one file more in every wheel: ``sparseact-slurm-probe.pth``.

The file is a site-packages start-up line (``import ...``, run at every interpreter start) that defers the SLURM executor
plugin's cluster probe to runs that use the SLURM executor (:mod:`sparseact.runtime.slurm_probe` says why).
setuptools cannot put a ``.pth`` file at the top of a wheel, editable ones included, so this backend adds it
to the wheel setuptools built, with its line in the wheel's RECORD; everything else is setuptools'.
"""

import base64
import hashlib
import zipfile
from pathlib import Path

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403 (the rest of the PEP 517/660 interface, unchanged)

PTH_NAME = "sparseact-slurm-probe.pth"
#: Installs the deferral; does nothing where sparseact or the module cannot be found (say, PYTHONPATH naming an older
#: copy of the sources), rather than print an import error at every interpreter start.
PTH_LINE = (
    b"import importlib.util as u; u.find_spec('sparseact') and u.find_spec('sparseact.runtime') "
    b"and u.find_spec('sparseact.runtime.slurm_probe') "
    b"and __import__('sparseact.runtime.slurm_probe', fromlist=['install']).install()\n"
)


def _with_pth(wheel_directory, name):
    """Rewrite the wheel ``name`` in ``wheel_directory`` with :data:`PTH_NAME` added and listed in its RECORD."""
    path = Path(wheel_directory) / name
    with zipfile.ZipFile(path) as wheel:
        members = [(info, wheel.read(info)) for info in wheel.infolist()]
    digest = base64.urlsafe_b64encode(hashlib.sha256(PTH_LINE).digest()).rstrip(b"=").decode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as wheel:
        wheel.writestr(PTH_NAME, PTH_LINE)
        for info, data in members:
            if info.filename.endswith(".dist-info/RECORD"):
                data += f"{PTH_NAME},sha256={digest},{len(PTH_LINE)}\n".encode()
            wheel.writestr(info, data)
    return name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _with_pth(wheel_directory, build_meta.build_wheel(wheel_directory, config_settings, metadata_directory))


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    return _with_pth(wheel_directory, build_meta.build_editable(wheel_directory, config_settings, metadata_directory))
