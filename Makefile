# Two commands on a fresh machine with Python 3.11 and pip:  make run   /   make test
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test check test-cluster test-postgres demo play study bench reproduce lint docs docs-figures clean

# uv installs what pip would, fetched in parallel (benchmarks/suite.py times the set-up); pip where uv cannot be had.
# Compiled to bytecode at install, as pip does: where PYTHONDONTWRITEBYTECODE is set (CI) nothing else would, and
# every process the tests start would compile its imports again.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet uv && \
		$(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python -e ".[dev]" \
		|| $(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

# The main job: the Exeter GA (2016)'s cube-system experiment, seed 0, into outputs/runs/cube/<time>/.
# It evolves for 21–24 s on 2 shared cores; the first run on a machine compiles numba's kernels first
# (49 s in a fresh process, once). From benchmarks/results/ga.json and engine.json (test_readme checks).
run: $(STAMP)
	$(BIN)/python -m ga_pig experiment=cube mutation=0.005

# A one-node SLURM cluster on this machine (apt-get as root), then a sweep through sbatch and islands on
# SLURM workers that dask-jobqueue submits
test-cluster: $(STAMP)
	bash scripts/slurm_local.sh up
	GA_PIG_REQUIRE_SLURM=1 $(BIN)/python -m pytest -q -m slow tests/runs/test_cluster.py \
		tests/islands/test_islands.py::test_islands_on_slurm_workers_give_the_same_outputs

# PostgreSQL on this machine (apt-get as root), then the study's database layer against it
test-postgres: $(STAMP)
	GA_PIG_POSTGRES_URL=$$(bash scripts/postgres_local.sh up) GA_PIG_REQUIRE_POSTGRES=1 $(BIN)/python -m pytest -q -m slow tests/study/test_postgres.py

demo: $(STAMP)
	$(BIN)/python -m ga_pig.demo

# Play Pig in the terminal against the optimal policy (see README "Play"); ARGS="opponent=hold_at:25 seed=3"
play: $(STAMP)
	$(BIN)/python -m ga_pig.play $(ARGS)

# Serve a study of Pig to participants' browsers (see docs: how-to "Run a study"); ARGS="name=pilot games=3"
study: $(STAMP)
	$(BIN)/python -m ga_pig.study $(ARGS)

# numba's kernels are compiled once, over both cores, before the test workers start (tests/warm.py)
test: $(STAMP)
	GA_PIG_WARM=1 $(BIN)/python -m pytest -q -n auto --durations=15 -m "not slow"

# The slower tier CI runs after `make test`: lint, the docs site built strictly, then the slow tests
# (a SLURM sweep stopped and continued, a job signalled as before its time limit and one past it, both requeued;
# skipped where no cluster answers; the study server in Chromium, under fifty participants, killed and restarted,
# and against PostgreSQL where one runs; the GA notebook run twice; every entry of reproduce --quick; the slowest
# games' endgame findings rows): the SLURM tests alone first (their jobs run on this machine's cores and are timed
# against its time limits), then the rest over the cores, each file's tests in one worker
check: lint docs
	$(BIN)/python -m pytest -q --durations=3 -m slow tests/runs/test_cluster.py
	$(BIN)/python -m pytest -q -n auto --dist loadfile --durations=5 -m slow --ignore=tests/runs/test_cluster.py

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/ga.py

reproduce: $(STAMP)
	$(BIN)/python -m ga_pig.reproduce

# Style, then the import layers and no-cycle contracts of .importlinter
lint: $(STAMP)
	$(BIN)/ruff check ga_pig tests benchmarks docs
	$(BIN)/lint-imports --no-cache

# The documentation site -> site/ (mkdocs.yml; offline; a broken link, anchor or reference fails it)
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

# Regenerate docs/figures/ from python -m ga_pig.reproduce (full budgets: the GA figures take a while)
docs-figures: $(STAMP)
	$(BIN)/python docs/_figures.py

clean:
	rm -rf $(VENV) .pytest_cache **/__pycache__ site
