"""Checking the island model's keys (``islands``, the ``migration`` and ``cluster`` groups) before any work: one
``ValueError`` naming the key, the value and what was expected. Whether a scheduler answers is the front end's
check ([`ga_pig.runs.cluster`][ga_pig.runs.cluster]); here only the values are."""

from __future__ import annotations

import re

from omegaconf import DictConfig

from ga_pig.config.base import Range, Rule, check_rules, fail

__all__ = ["ISLAND_RULES", "CHOICES", "CLUSTERS", "check_islands"]

#: The island model's numeric keys and what a refusal says was expected.
ISLAND_RULES: dict[str, Rule] = {
    "islands": Rule(Range(1), "an integer >= 1 (1: one population, no islands)"),
    "migration.every": Rule(Range(1), "an integer >= 1 (generations between migrations)"),
    "migration.emigrants": Rule(Range(1), "an integer >= 1"),
    "cluster.workers": Rule(Range(1), "an integer >= 1 or null (one per island, at most this machine's cores)"),
    "cluster.cores": Rule(Range(1), "an integer >= 1 or null"),
    "cluster.lost_after_s": Rule(Range(0, low_open=True), "seconds > 0 (how long the run waits for a worker)"),
}
#: The names ``migration.<key>`` takes, by key.
CHOICES = {"select": ("best", "random"), "replace": ("worst", "random"), "topology": ("ring", "full", "random_pairs")}
CLUSTERS = ("local", "slurm")
#: The keys of ``cluster=slurm`` alone.
SLURM_KEYS = ("cores", "memory", "walltime", "queue", "account", "job_extra")
_ADDRESS = re.compile(r"^(tcp|tls)://[^\s/:]+:\d{1,5}$")


def check_islands(cfg: DictConfig, survivors: int) -> None:
    """Refuse a bad value of ``islands``, ``migration.*`` or ``cluster.*``; ``survivors``: the members each island's
    selection keeps, which immigrants replace."""
    check_rules(cfg, ISLAND_RULES)
    migration, cluster, islands = cfg.migration, cfg.cluster, cfg.islands
    for key, allowed in CHOICES.items():
        if migration[key] not in allowed:
            fail(f"migration.{key}", migration[key], f"one of {allowed}")
    if cluster.kind not in CLUSTERS:
        fail("cluster.kind", cluster.kind, f"one of {CLUSTERS} (pick it with cluster=local or cluster=slurm)")
    if cluster.address is not None and not _ADDRESS.match(str(cluster.address)):
        fail("cluster.address", cluster.address, "null or a Dask scheduler's address, tcp://host:port (or tls://)")
    if cluster.kind == "local":
        for key in SLURM_KEYS:
            if cluster[key]:
                fail(f"cluster.{key}", cluster[key], f"null with cluster=local: {key} is a key of cluster=slurm")
    if islands == 1:
        return
    if cfg.mode != "evolve":
        fail("islands", islands, f"1 with mode={cfg.mode} (islands evolve populations; a random search has none)")
    senders = islands - 1 if migration.topology == "full" else 1
    if migration.emigrants * senders > survivors:
        fail("migration.emigrants", migration.emigrants,
             f"at most {survivors // senders} with {islands} islands and topology {migration.topology}: the "
             f"immigrants ({senders} island(s) x emigrants) replace survivors, and each island keeps {survivors}")
