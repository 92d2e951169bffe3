"""Every job's environment (sparseact.runtime.provenance.job_environment): one BLAS thread, glibc's malloc keeping
freed arrays mapped, the portable CPU dispatch."""

import ctypes
import ctypes.util
import platform

import pytest

from sparseact.runtime.provenance import JOB_MALLOC, JOB_THREADS, job_environment, portable_cpu_environment

#: mallopt(3) parameters of the glibc variables in JOB_MALLOC (malloc.h).
MALLOPT_PARAMETERS = {"MALLOC_TRIM_THRESHOLD_": -1, "MALLOC_MMAP_THRESHOLD_": -3}


def test_the_job_environment_holds_every_setting():
    assert job_environment() == {**JOB_THREADS, **JOB_MALLOC, **portable_cpu_environment()}


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="the settings are glibc's; other C libraries ignore them")
def test_glibc_accepts_the_malloc_settings():
    """mallopt returns 1 for a value glibc takes and 0 for one it refuses (as it ignores a refused variable)."""
    assert set(JOB_MALLOC) == set(MALLOPT_PARAMETERS)
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    for variable, value in JOB_MALLOC.items():
        assert libc.mallopt(MALLOPT_PARAMETERS[variable], int(value)) == 1, variable
