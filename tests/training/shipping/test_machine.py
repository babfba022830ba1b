"""The machine record of a model card is read off the machine (``training/shipping/machine.py``)."""

from __future__ import annotations

import os

from tablezoo.training.shipping.machine import cpu_name, load_average, machine_record


def test_cpu_name_reads_the_model_name_line(tmp_path):
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nvendor_id\t: X\nmodel name\t: Test CPU 9000 @ 3 GHz\n"
                       "processor\t: 1\nmodel name\t: Test CPU 9000 @ 3 GHz\n")
    assert cpu_name(cpuinfo) == "Test CPU 9000 @ 3 GHz"


def test_cpu_name_falls_back_when_there_is_no_cpuinfo(tmp_path):
    name = cpu_name(tmp_path / "missing")
    assert isinstance(name, str) and name  # platform's answer, never empty


def test_machine_record_carries_this_machine_and_the_run(monkeypatch):
    monkeypatch.setattr(os, "getloadavg", lambda: (3.456, 2.0, 1.0))
    record = machine_record(processes=2, update_threads=2)
    assert record["cpus"] == os.cpu_count()
    assert record["load_average_at_start"] == 3.46
    assert record["processes"] == 2 and record["update_threads"] == 2


def test_load_average_is_none_where_the_system_has_none(monkeypatch):
    def unavailable():
        raise OSError("no load average here")

    monkeypatch.setattr(os, "getloadavg", unavailable)
    assert load_average() is None
