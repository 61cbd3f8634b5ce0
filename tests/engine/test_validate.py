"""ga_pig._validate: the machine's memory and byte counts in words."""

from ga_pig._validate import format_bytes, machine_memory


def test_machine_memory_and_byte_formatting():
    assert 2**28 < machine_memory() < 2**50
    assert format_bytes(512) == "512 B" and format_bytes(3 * 2**30) == "3 GiB"
    assert format_bytes(6 * 2**60) == "6 EiB"
