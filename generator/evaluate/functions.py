"""The functions a snippet may call, each with its cost: what it charges before it runs, in elements touched."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from . import helpers
from .budget import Meter
from .limits import MAX_SEQUENCE


def _length(value) -> int:
    return len(value) if isinstance(value, (str, list, tuple, dict)) else 1


def _unit(meter: Meter, arguments: list, line) -> None:
    meter.step(line)


def _shallow(meter: Meter, arguments: list, line) -> None:
    """Touches each element of its arguments once, not what the elements hold."""
    meter.step(line, sum(_length(argument) for argument in arguments))


def _deep(meter: Meter, arguments: list, line) -> None:
    """Compares elements with one another: every nested element may be touched."""
    meter.touch(line, *arguments)


def _sorting(meter: Meter, arguments: list, line) -> None:
    """A sort compares each element about log2(n) times: ceil(log2(n + 1)), counted in integers as the runtime does."""
    rounds = max(1, _length(arguments[0]).bit_length()) if arguments else 1
    for _ in range(rounds):
        meter.touch(line, *arguments)


def _range(meter: Meter, arguments: list, line) -> None:
    # A range longer than MAX_SEQUENCE is refused by the helper; charge no more than that first.
    meter.step(line, min(helpers.range_length(*arguments), MAX_SEQUENCE) + 1)


def _connected(meter: Meter, arguments: list, line) -> None:
    """Union-find over `count` nodes and every pair."""
    count = arguments[0] if arguments and type(arguments[0]) is int else 0
    meter.step(line, max(count, 0) + sum(_length(argument) for argument in arguments[1:]) + 1)


@dataclass(frozen=True)
class Function:
    """A callable offered to snippets and what calling it costs."""

    call: Callable[..., Any]
    cost: Callable[[Meter, list, Any], None]


FUNCTIONS: dict[str, Function] = {
    "abs": Function(helpers.safe_abs, _unit),
    "all": Function(helpers.safe_all, _shallow),
    "any": Function(helpers.safe_any, _shallow),
    "bool": Function(helpers.safe_bool, _unit),
    "enumerate": Function(helpers.safe_enumerate, _shallow),
    "float": Function(helpers.safe_float, _unit),
    "int": Function(helpers.safe_int, _unit),
    "len": Function(helpers.safe_len, _unit),
    "list": Function(helpers.safe_list, _shallow),
    "max": Function(helpers.safe_max, _deep),
    "min": Function(helpers.safe_min, _deep),
    "range": Function(helpers.safe_range, _range),
    "round": Function(helpers.safe_round, _unit),
    "sorted": Function(helpers.safe_sorted, _sorting),
    "str": Function(helpers.safe_str, _shallow),
    "sum": Function(helpers.safe_sum, _shallow),
    "zip": Function(helpers.safe_zip, _shallow),
    "distance": Function(helpers.distance, _unit),
    "square_gap": Function(helpers.square_gap, _unit),
    "connected": Function(helpers.connected, _connected),
}


def built_by(result) -> int:
    """Elements a function's result adds to memory: a list and the lists directly inside it."""
    if isinstance(result, str):
        return len(result)
    if isinstance(result, list):
        return len(result) + sum(len(item) for item in result if isinstance(item, list))
    return 0
