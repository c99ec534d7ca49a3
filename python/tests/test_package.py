"""The installed package: one abi3 extension for CPython 3.9+, typed (stubs
and py.typed), every public name documented and in its stub."""

import pathlib
import re

import tooljson
import tooljson._tooljson as ext


def test_the_extension_is_abi3():
    assert ext.__file__.endswith(".abi3.so") or ext.__file__.endswith(".pyd")


def test_stubs_and_py_typed_are_installed_and_name_every_export():
    here = pathlib.Path(tooljson.__file__).parent
    assert (here / "py.typed").is_file()
    stub = (here / "_tooljson.pyi").read_text()
    for name in tooljson.__all__:
        if name in ("iter_events", "stream_events", "__version__"):
            continue
        assert re.search(rf"^class {name}\b|^def {name}\b", stub, re.M), name


def test_every_public_name_has_a_docstring():
    for name in tooljson.__all__:
        obj = getattr(tooljson, name)
        if name == "__version__":
            assert re.fullmatch(r"\d+\.\d+\.\d+", obj)
            continue
        assert obj.__doc__ and len(obj.__doc__.strip()) > 10, name
