"""Write the notebooks in experiments/ (outputs empty). Run after editing a cell here:

    .venv/bin/python experiments/make_notebooks.py

Each notebook only calls the library, runs in under two minutes as it stands (the tests run it so)
and writes under the repository's ``outputs/`` (git-ignored). Its long version is one switch away,
named in its first cell: ``FULL = True`` in the notebook, or ``GA_PIG_FULL=1`` in the environment
Jupyter starts from.
"""

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from ga_pig.files import write_text

HERE = Path(__file__).parent
#: The switch to the long version, and where a notebook writes: the repository's outputs/ when
#: Jupyter runs it from experiments/ (its own folder), else outputs/ in the working directory.
OUTPUTS = "\nhere = Path.cwd()\nOUT = (here.parent if here.name == 'experiments' else here) / 'outputs'"
SETUP = "\nFULL = os.environ.get('GA_PIG_FULL') == '1'  # True: the long version (see above)" + OUTPUTS


def switch(short: str, full: str) -> str:
    """The sentence of a notebook's first cell that says how long it runs and how to get the long version."""
    return (f"\n\nAs it stands it runs in {short}. **The long version** ({full}): set `FULL = True` in the "
            "next cell, or start Jupyter with `GA_PIG_FULL=1` in the environment. Files go to `outputs/` at the "
            "repository's root (git-ignored).")


NOTEBOOKS = {
    "engine_tour.ipynb": [
        new_markdown_cell("# The Pig engine\nRules as data, strategies as bool tensors `s[i, j, k]`, exact "
                          "evaluation, the optimal policy, best responses and a fast simulator."
                          + switch("under a minute", "2,000,000 simulated games instead of 200,000")),
        new_code_cell("import os\nfrom pathlib import Path\n\nfrom ga_pig import Game, exact, simulate\n"
                      "from ga_pig import strategies as S\nfrom ga_pig.analysis import figures\n" + SETUP
                      + "\ngame = Game.pig()"),
        new_code_cell("best = exact.optimal(game)\nbest.win_probability  # P(0,0,0) = 0.5306"),
        new_code_cell("exact.seats(best.policy, S.hold_at(20, game), game)"),
        new_code_cell("simulate.play(best.policy, S.hold_at(20, game), game, n_games=2_000_000 if FULL else 200_000, "
                      "seed=0)"),
        new_code_cell("figures.boundary_surface(best.policy, 'optimal policy')"),
        new_code_cell("figures.cross_section(best.policy, 30, exact.reachable(best.policy, game))"),
        new_code_cell("exact.best_response(S.hold_at(20, game), game).win_probability  # 0.5874"),
        new_markdown_cell("## Variants (seed 003)\nEvery variant is an outcome table through the same engine; "
                          "Hog's strategies are dice counts `s[i, j]`."),
        new_code_cell("import pandas as pd\n\nfrom ga_pig import GAMES\n\n"
                      "solved = {name: exact.optimal(Game.named(name)) for name in GAMES if name != 'piglet'}\n"
                      "pd.Series({name: s.win_probability for name, s in solved.items()}, name='first player wins')"),
        new_code_cell("figures.boundary_surface(solved['pig_dice'].policy, 'Pig Dice: optimal policy')  # holds at 46"),
        new_code_cell("hog = Game.hog()\nsimulate.play(solved['hog'].policy, S.dice(5, hog), hog, n_games=100_000, "
                      "seed=0)"),
        new_code_cell("figures.dice_policy(solved['hog'].policy, 'Hog: dice to roll')  # 6 dice at the start"),
    ],
    "ga_runs.ipynb": [
        new_markdown_cell("# GA runs and sweeps\nRun experiments through the same entry point as "
                          "`python -m ga_pig`, then load every run in one call."
                          + switch("under a minute: two 100-generation cube runs and each discovery experiment "
                                   "for 5 seconds", "300 generations, and each discovery experiment for its own "
                                   "time limit, 5 or 15 minutes: about 50 minutes")),
        new_code_cell("import os\nimport shutil\nfrom pathlib import Path\n\n"
                      "from ga_pig.analysis import figures, load_runs, load_summaries\n"
                      "from ga_pig.config import compose\nfrom ga_pig.runs import run\n" + SETUP),
        new_code_cell("# the runs are rebuilt from their configs each time the notebook runs (a run directory\n"
                      "# is never written into twice)\n"
                      "shutil.rmtree(OUT / 'notebook', ignore_errors=True)\n"
                      "generations = 300 if FULL else 100\n"
                      "for mutation in (0.005, 0.05):\n"
                      "    cfg = compose(['experiment=cube', f'mutation={mutation}', f'generations={generations}',"
                      " 'progress=false'])\n"
                      "    run(cfg, OUT / 'notebook' / f'cube_{mutation}')"),
        new_code_cell("runs = load_runs(OUT / 'notebook')\nruns.head()"),
        new_code_cell("load_summaries(OUT / 'notebook')[['experiment', 'mutation', 'best_ever', 'final_mean']]"),
        new_code_cell("figures.winrate_curves(runs, by='mutation')"),
        new_markdown_cell("## Discovery: near-optimal play without the answer key\n"
                          "`coevolve_exact` and `coevolve_simulated` never consult the optimal policy (it only "
                          "writes the curves); `vs_optimal` is judged by it; `coevolve_assisted` adds a "
                          "best-response step (solver-assisted, reported apart). Each runs for its own "
                          "`time_limit_s`."),
        new_code_cell("shutil.rmtree(OUT / 'notebook_discovery', ignore_errors=True)  # rebuilt, as above\n"
                      "seconds = None if FULL else 5  # None: each experiment's own time limit (5 or 15 minutes)\n"
                      "for name in ('vs_optimal', 'coevolve_exact', 'coevolve_simulated', 'coevolve_assisted'):\n"
                      "    limit = [] if seconds is None else [f'time_limit_s={seconds}']\n"
                      "    run(compose([f'experiment={name}', 'progress=false', *limit]), "
                      "OUT / 'notebook_discovery' / name)\n"
                      "found = load_runs(OUT / 'notebook_discovery')\n"
                      "load_summaries(OUT / 'notebook_discovery')[['experiment', 'setting', 'generations', "
                      "'champion_best_ever', 'champion']]"),
        new_code_cell("from ga_pig import Game, exact\nfrom ga_pig import strategies as S\n"
                      "from ga_pig.analysis import discovery\n\ngame = Game.pig()\nsolution = exact.optimal(game)\n"
                      "references = {**discovery.EXETER_GA_2016_PEAKS,\n"
                      "              'hold at 25': exact.win_rate(S.hold_at(25, game), solution.policy, game)}\n"
                      "figures.discovery_curves(found, references)"),
        new_code_cell("import numpy as np\n\n"
                      "champions = {name: np.load(OUT / 'notebook_discovery' / name / 'best.npy')\n"
                      "             for name in ('vs_optimal', 'coevolve_exact', 'coevolve_simulated')}\n"
                      "discovery.cost_table(champions, game, solution)  # where each loses, occupancy-weighted"),
        new_code_cell("costs = discovery.decision_costs(champions['coevolve_exact'], game, solution)\n"
                      "figures.decision_costs(champions['coevolve_exact'], solution.policy, costs.by_score(), "
                      "'coevolve_exact')"),
    ],
    "reproduction.ipynb": [
        new_markdown_cell("# Every seed figure and table\n`python -m ga_pig.reproduce` writes them all, with "
                          "an index against the seeds."
                          + switch("under a minute: three sections with `--quick` budgets (`python -m "
                                   "ga_pig.reproduce --quick` runs every entry so, in one to two minutes)",
                                   "every figure and table at the seeds' budgets, over ten minutes on two cores")),
        new_code_cell("import os\nfrom pathlib import Path\n\nfrom IPython.display import Image, Markdown\n\n"
                      "from ga_pig import reproduce\n" + SETUP),
        new_code_cell("short = ['--quick', '--only', 'statistics', '--only', 'engine_figures', '--only', "
                      "'hold25_vs_all']\n"
                      "out = reproduce.main([*([] if FULL else short), '--out', str(OUT / 'reproduce')])"),
        new_code_cell("Markdown((out / 'index.md').read_text())"),
        new_code_cell("Image(filename=str(out / ('random_search_density.png' if FULL else 'cross_section_j30.png')))"),
    ],
    "human_play.ipynb": [
        new_markdown_cell("# People against optimal play\n`python -m ga_pig.play` records every decision with "
                          "the exact win probabilities of rolling and holding. Here synthetic people play seed "
                          "000's study (15 games, 30 people); point `load_play` at `outputs/play` for real "
                          "sessions. `synthetic.study` rebuilds `outputs/play_study` whole each time, so "
                          "running the notebook again gives the same tables.\n\nIt runs in under a minute and "
                          "has no long version. Files go to `outputs/` at the repository's root (git-ignored)."),
        new_code_cell("from pathlib import Path\n\nfrom ga_pig import Game\n"
                      "from ga_pig.analysis import figures, load_play, play\nfrom ga_pig.play import synthetic\n"
                      + OUTPUTS + "\ngame = Game.pig()"),
        new_code_cell("directory, people = synthetic.study(game, OUT / 'play_study', games=15)\n"
                      "decisions, games = load_play(directory)\n"
                      "decisions[['player', 'stated_risk', 'i', 'j', 'k', 'action', 'optimal_action', 'p_roll', "
                      "'p_hold', 'loss']].head()"),
        new_code_cell("play.players(decisions).sort_values('loss_per_game')"),
        new_code_cell("turns = play.turns(decisions)\nplay.risk_gradients(turns)  # the seed's 4.75 / 4.85 / 4.76"),
        new_code_cell("figures.risk_scores(turns)"),
        new_code_cell("model = play.hold_model(decisions, 'person_01')\n"
                      "model.threshold, model.slope  # true: people[0]['base'], people[0]['slope']"),
        new_code_cell("play.behaviour_risk(decisions).head(10)  # stated vs played risk class"),
        new_code_cell("play.late_game_test(turns)  # the seed's 'panic in turns 14-16'"),
    ],
}


def notebook(cells: list) -> nbformat.NotebookNode:
    """The notebook of ``cells``, each cell's id its position: writing it again gives the same file."""
    for number, cell in enumerate(cells):
        cell["id"] = f"cell-{number:02d}"
    return new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                              "language": "python"}})


if __name__ == "__main__":
    for name, cells in NOTEBOOKS.items():
        write_text(HERE / name, nbformat.writes(notebook(cells)) + "\n")
        print("wrote", HERE / name)
