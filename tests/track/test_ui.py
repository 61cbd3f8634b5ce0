"""A sweep of three mutation rates where a researcher looks: ``mlflow server`` on its SQLite store, in
Chromium, shows the three runs with the rate as a column; tensorboard's scalars page shows the three runs; both
photographed into $GA_PIG_SCREENSHOTS. Skipped without Chromium, chromedriver, Selenium or MLflow's server
(``GA_PIG_MLFLOW`` may name an ``mlflow`` command that has it), except under CI, where the dev install has them."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pandas as pd
import pytest

pytest.importorskip("mlflow")
pytest.importorskip("tensorboard")

import tests.study.test_browser as study_browser  # noqa: E402
from tests.study.server import free_port  # noqa: E402
from tests.study.test_browser import _in_ci, _wait  # noqa: E402

pytestmark = pytest.mark.slow
#: The study's browser test's fixtures: Chromium through chromedriver, and where screenshots go.
browser, shots = study_browser.browser, study_browser.shots

ROOT = Path(__file__).resolve().parents[2]
RATES = ("0.01", "0.05", "0.1")
#: Seconds a server may take to answer (MLflow's starts its workers slowly on a busy machine).
STARTING = 300


def mlflow_command() -> list[str]:
    """The command that runs MLflow's server, or a skip (a failure under CI) where there is none."""
    if os.environ.get("GA_PIG_MLFLOW"):
        return [os.environ["GA_PIG_MLFLOW"]]
    import mlflow

    if importlib.util.find_spec("flask") and (Path(mlflow.__file__).parent / "server/js/build/index.html").is_file():
        return [sys.executable, "-m", "mlflow"]
    reason = ("MLflow's UI needs the full mlflow package (pip install -e '.[dev]'), or GA_PIG_MLFLOW naming an "
              "mlflow command that has it")
    if _in_ci():
        pytest.fail(f"CI is set but {reason}")
    pytest.skip(reason)


class Server:
    """A server started in its own process group, answering at ``url`` once started; stopped with its group."""

    def __init__(self, command: list[str], port: int, log: Path) -> None:
        self.url = f"http://127.0.0.1:{port}/"
        self.log = log
        with open(log, "wb") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, cwd=log.parent,
                                            start_new_session=True)
        deadline = time.monotonic() + STARTING
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"{command[:3]} ended with {self.process.returncode}: {log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url, timeout=5) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(2)
        self.stop()
        pytest.fail(f"{command[:3]} did not answer within {STARTING} s: {log.read_text()[-2000:]}")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


@pytest.fixture(scope="module")
def sweep(tmp_path_factory) -> tuple[Path, str, Path]:
    """Three runs of two generations at mutation 0.01, 0.05 and 0.1, sent live to both trackers."""
    tmp_path = tmp_path_factory.mktemp("ui")
    where, store, logdir = tmp_path / "sweep", f"sqlite:///{tmp_path / 'mlflow.db'}", tmp_path / "tensorboard"
    answer = subprocess.run(
        [sys.executable, "-m", "ga_pig", "--multirun", "experiment=cube", "game.goal=20", "population_size=6",
         "games_per_match=10", "generations=2", "eval_every=1", f"mutation={','.join(RATES)}",
         "hydra/launcher=basic", f"hydra.sweep.dir={where}", "logger=[tensorboard,mlflow]",
         f"logger.tracking_uri={store}", f"logger.logdir={logdir}", "progress=false"],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert answer.returncode == 0, answer.stdout + answer.stderr
    return where, store, logdir / where.name


def _by_text(driver, text: str, tag: str = "*") -> list:
    from selenium.webdriver.common.by import By

    return [e for e in driver.find_elements(By.XPATH, f"//{tag}[normalize-space(.)='{text}']") if e.is_displayed()]


def _shown(driver) -> str:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.TAG_NAME, "body").text


def test_mlflow_ui_shows_the_sweeps_three_runs_with_the_rate_as_a_column(sweep, browser, shots, tmp_path):
    from mlflow.tracking import MlflowClient
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    where, store, _ = sweep
    command = mlflow_command()
    experiment = MlflowClient(tracking_uri=store).get_experiment_by_name(f"cube sweep {where.name}")
    port = free_port()
    server = Server([*command, "server", "--backend-store-uri", store, "--host", "127.0.0.1", "--port", str(port),
                     "--workers", "1"], port, tmp_path / "mlflow.log")
    try:
        browser.set_window_size(2000, 900)
        browser.get(f"{server.url}#/experiments/{experiment.experiment_id}/runs")
        _wait(browser, lambda d: all(_by_text(d, f"{job}_cube", "a") for job in range(3)), "the three runs")
        # the assistant's panel narrows the table (the page redraws as it loads: clicked by a script)
        browser.execute_script("document.querySelectorAll(\"button[aria-label='Close']\").forEach(b => b.click())")
        _wait(browser, lambda d: _by_text(d, "Columns", "button"), "the Columns menu")[0].click()
        _wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "input[placeholder='Search columns']"),
              "the column search").send_keys("mutation")
        # the parameter named exactly mutation (operators.mutation and operators.fine_mutation match too)
        _wait(browser, lambda d: [e for e in d.find_elements(By.XPATH, "//strong[normalize-space(.)='mutation']/..")
                                  if e.is_displayed() and e.text.strip() == "mutation"], "mutation")[0].click()
        browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
        headers = _wait(browser, lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, "[role=columnheader]")
                                            if e.text == "mutation"], "the mutation column")
        cells = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "[role=gridcell]")]
        browser.save_screenshot(str(shots / "mlflow-runs.png"))
    finally:
        server.stop()
    assert headers and sorted(c for c in cells if c in RATES) == sorted(RATES)
    assert sorted(c.splitlines()[-1] for c in cells if c.endswith("_cube")) == ["0_cube", "1_cube", "2_cube"]


def test_tensorboard_scalars_page_shows_the_sweeps_three_runs(sweep, browser, shots, tmp_path):
    _, _, logdir = sweep
    port = free_port()
    server = Server([sys.executable, "-m", "tensorboard.main", "--logdir", str(logdir), "--host", "127.0.0.1",
                     "--port", str(port)], port, tmp_path / "tensorboard.log")
    try:
        browser.get(f"{server.url}#scalars")
        # the page draws in shadow roots, which XPath does not enter: its lines of text as shown
        wanted = {"0_cube", "1_cube", "2_cube", "tag: champion"}
        _wait(browser, lambda d: wanted <= set(_shown(d).splitlines()), "the three runs and the champion's chart")
        browser.save_screenshot(str(shots / "tensorboard-scalars.png"))
        assert wanted <= set(_shown(browser).splitlines())
    finally:
        server.stop()


def test_a_tracking_server_killed_mid_run(tmp_path):
    """``mlflow server`` killed while a run sends to it: the run ends as it would (here on its time limit) with its
    files whole, one warning line says what was not sent, and ``python -m ga_pig.track`` sends the rest to the
    server started again on the same store."""
    from mlflow.tracking import MlflowClient

    from ga_pig.track.__main__ import main as track_main
    from tests.track.test_track import assert_mlflow_holds

    command, store = mlflow_command(), f"sqlite:///{tmp_path / 'server.db'}"

    def serve(log: str) -> Server:
        port = free_port()
        return Server([*command, "server", "--backend-store-uri", store, "--host", "127.0.0.1", "--port", str(port),
                       "--workers", "1"], port, tmp_path / log)

    server, run_dir = serve("mlflow.log"), tmp_path / "run"
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "ga_pig", "experiment=cube", "game.goal=20", "population_size=6",
             "games_per_match=10", "eval_every=1", "generations=1000000", "time_limit_s=40", "progress=false",
             "logger=mlflow", f"logger.tracking_uri={server.url.rstrip('/')}", f"hydra.run.dir={run_dir}"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        client, deadline = MlflowClient(tracking_uri=server.url.rstrip("/")), time.monotonic() + STARTING
        while not [r for r in client.search_runs([e.experiment_id for e in client.search_experiments()])
                   if "seconds" in r.data.metrics]:
            assert time.monotonic() < deadline and process.poll() is None, "the run sent nothing"
            time.sleep(1)
    finally:
        server.stop()
    output, _ = process.communicate(timeout=600)
    assert process.returncode == 0, output
    warnings = [line for line in output.splitlines() if "stopped taking records" in line]
    assert len(warnings) == 1, output  # one line, and the run went on
    assert [line for line in output.splitlines() if "WARNING" in line] == warnings, output
    assert "python -m ga_pig.track" in warnings[0]
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["stopped"] == "time_limit_s"
    generations = pd.read_parquet(run_dir / "generations.parquet")["generation"].tolist()
    assert generations == list(range(summary["generations"] + 1))
    server = serve("mlflow-again.log")
    try:
        track_main([str(run_dir), "--tracking-uri", server.url.rstrip("/")])
        client = MlflowClient(tracking_uri=server.url.rstrip("/"))
        runs = client.search_runs([e.experiment_id for e in client.search_experiments()])
        assert len(runs) == 1 and runs[0].info.status == "FINISHED"
        assert_mlflow_holds(client, runs[0].info.run_id, run_dir)
    finally:
        server.stop()
