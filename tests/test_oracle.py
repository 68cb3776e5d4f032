"""The oracle helper (tests/oracle.py): a crash of the oracle fails the call, not the run."""

from __future__ import annotations

import pytest
from oracle import Oracle, OracleCrash, gnubg_oracle


def test_a_segfault_of_the_oracle_fails_one_call_and_the_next_starts_afresh() -> None:
    ctypes = Oracle("ctypes")
    try:
        assert ctypes.string_at(b"abc") == b"abc"
        with pytest.raises(OracleCrash, match=r"string_at\(0,\) killed .* \(exit status -11\)"):
            ctypes.string_at(0)  # reads address 0 in the child: SIGSEGV
        assert ctypes.call("string_at", b"abc", 2) == b"ab"  # a fresh child answers
    finally:
        ctypes.close()


def test_the_oracles_errors_and_values_come_back_as_they_are() -> None:
    operator = Oracle("operator")
    try:
        assert operator.getitem({"score": (1, 2)}, "score") == (1, 2)
        with pytest.raises(RuntimeError, match="ZeroDivisionError"):
            operator.truediv(1, 0)
    finally:
        operator.close()


@pytest.mark.gnubg
def test_gnubg_answers_from_its_own_process() -> None:
    gnubg = gnubg_oracle()
    gnubg.setgnubgid("4HPwATDgc/ABMA:cAkAAAAAAAAA")
    assert gnubg.positionid() == "4HPwATDgc/ABMA"
