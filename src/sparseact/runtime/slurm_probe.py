"""The SLURM executor plugin's cluster probe, paid only by a run that uses the SLURM executor.

snakemake-executor-plugin-slurm (2.x) builds the help text of its ``status_command`` setting when it
is imported, and that text asks ``scontrol show config`` for the cluster's ``MinJobAge``
(``job_status_query.get_min_job_age``, timeout 10 s). Snakemake imports every installed executor plugin
at every start, to register their command-line options, so with SLURM's client installed and no
controller answering, every ``snakemake`` call, local ones and ``snakemake -n`` included, waited about 9 s
for a cluster it does not use. A SLURM run then asked again at each status check.

:func:`install` (called at interpreter start by ``sparseact-slurm-probe.pth``, which the build backend
``tools/sparseact_build.py`` puts beside the package; it costs a few milliseconds and loads nothing of the
plugin, nor ``importlib.abc`` and ``typing``: the two classes below follow the import protocols without
subclassing their abstract bases) wraps ``get_min_job_age`` as the plugin's ``job_status_query`` module is loaded:

- while the plugin package itself is being imported (the help text), the wrapper answers ``None``
  ("not known"), as the plugin does when ``scontrol`` cannot answer; no process is started;
- afterwards, which is only when a run uses the SLURM executor, the first call runs the plugin's own probe
  (its timeout, 10 s) and every later call returns that answer; when it found nothing, one line on
  standard error says so and what the executor does instead.
"""

import importlib.machinery
import sys
import time

PLUGIN = "snakemake_executor_plugin_slurm"
PROBING_MODULE = f"{PLUGIN}.job_status_query"
PROBE = "get_min_job_age"

_state = {"armed": False, "probed": False, "value": None}


def deferred(probe):
    """``probe`` (the plugin's ``get_min_job_age``) run at most once, and never before :func:`arm`."""

    def get_min_job_age():
        if not _state["armed"]:
            return None
        if not _state["probed"]:
            start = time.monotonic()
            _state["value"], _state["probed"] = probe(), True
            if _state["value"] is None:
                sys.stderr.write(
                    f"sparseact: `scontrol show config` gave no MinJobAge (it answered or gave up in "
                    f"{time.monotonic() - start:.1f} s; is a SLURM controller reachable?); the SLURM executor "
                    "goes on without it (it then queries job states with sacct where sacct is installed)\n"
                )
        return _state["value"]

    get_min_job_age.__doc__ = probe.__doc__
    get_min_job_age.__wrapped__ = probe
    return get_min_job_age


def arm():
    """From now on :func:`deferred` probes (called once the plugin package is imported)."""
    _state["armed"] = True


class _Loader:
    """The plugin's own loader, with :func:`deferred` applied to the probe or :func:`arm` called after it runs."""

    def __init__(self, loader, name):
        self.loader, self.name = loader, name

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        self.loader.exec_module(module)
        if self.name == PROBING_MODULE and callable(getattr(module, PROBE, None)):
            setattr(module, PROBE, deferred(getattr(module, PROBE)))
        elif self.name == PLUGIN:
            arm()

    def __getattr__(self, name):
        return getattr(self.loader, name)


class _Finder:
    """Finds the plugin package and its probing module where Python would, and loads them through :class:`_Loader`."""

    def find_spec(self, fullname, path, target=None):
        if fullname not in (PLUGIN, PROBING_MODULE):
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is not None and spec.loader is not None:
            spec.loader = _Loader(spec.loader, fullname)
        return spec


def install():
    """Put the finder first on ``sys.meta_path`` (once); a no-op when the plugin was imported already."""
    if PLUGIN not in sys.modules and not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
