"""The family's numba kernels in one namespace, by job (what the import-time check scans): one
turn and one orbit (`_turns`), mixing on orbits whose best responses cycle (`_mixing`), the
orbit solve (`_solvers`), one member against copies of another (`_evaluation`) and the
simulation loops (`_loop`)."""

from ga_pig.families.players._evaluation import (
    _member_orbit,
    _member_quick,
    _member_turn,
    _one_against,
    _stops,
    _threshold_rows,
    _versus,
)
from ga_pig.families.players._loop import _play, _play_blocks_players, _play_players_game
from ga_pig.families.players._mixing import (
    _mix_newton,
    _mix_two,
    _preference,
    _resolve,
    _set_mix,
    _weight_for,
    _weights,
)
from ga_pig.families.players._records import _turn_rules, _turn_scratch
from ga_pig.families.players._solvers import (
    _adopt_mixture,
    _best_responses,
    _collect_cycle,
    _fixed_orbit,
    _orbit_of,
    _solve,
    _workspace,
)
from ga_pig.families.players._turns import (
    _fixed_turn,
    _gcd,
    _orbit_values,
    _reachable,
    _rotated,
    _turn,
)

__all__ = ["_adopt_mixture", "_best_responses", "_collect_cycle", "_fixed_orbit", "_fixed_turn", "_gcd",
           "_member_orbit", "_member_quick", "_member_turn", "_mix_newton", "_mix_two", "_one_against", "_orbit_of",
           "_orbit_values", "_play", "_play_blocks_players", "_play_players_game", "_preference", "_reachable",
           "_resolve", "_rotated", "_set_mix", "_solve", "_stops", "_threshold_rows", "_turn", "_turn_rules",
           "_turn_scratch", "_versus", "_weight_for", "_weights", "_workspace"]
