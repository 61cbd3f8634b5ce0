"""ga_pig.track: a run's records read back with MLflow's client and TensorBoard's event reader, against the run
directory's own files; sending twice, a store lost mid-run, a store down at the start, resumes and sweeps."""

from __future__ import annotations

import io
import json
import logging
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from omegaconf import OmegaConf

pytest.importorskip("mlflow")
pytest.importorskip("tensorboardX")

from mlflow.tracking import MlflowClient  # noqa: E402
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402

import ga_pig.track as track  # noqa: E402
from ga_pig.config import compose, over_schema, to_spec  # noqa: E402
from ga_pig.runs import run  # noqa: E402
from ga_pig.track import check, painter, pictures  # noqa: E402
from ga_pig.track import mlflow_run as mlflow_run_module  # noqa: E402
from ga_pig.track.__main__ import main as track_main  # noqa: E402
from ga_pig.track.pictures import policy_picture  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SMALL = ["experiment=cube", "game.goal=20", "population_size=6", "games_per_match=10", "eval_every=1",
         "checkpoint_every=2", "progress=false"]


@pytest.fixture(scope="module")
def stores(tmp_path_factory) -> tuple[str, Path]:
    """One MLflow database and one TensorBoard directory for the module (creating a database takes seconds)."""
    where = tmp_path_factory.mktemp("stores")
    return f"sqlite:///{where / 'mlflow.db'}", where / "tensorboard"


def tracked(stores, *overrides: str) -> list[str]:
    uri, logdir = stores
    return [*SMALL, "logger=[tensorboard,mlflow]", f"logger.tracking_uri={uri}", f"logger.logdir={logdir}",
            *overrides]


def mlflow_runs(uri: str, run_dir: Path):
    client = MlflowClient(tracking_uri=uri)
    experiments = [e.experiment_id for e in client.search_experiments()]
    return client, client.search_runs(experiments, filter_string=f"tags.`ga_pig.run_dir` = '{run_dir.resolve()}'")


def metric_columns(run_dir: Path) -> pd.DataFrame:
    frame = pd.read_parquet(run_dir / "generations.parquet")
    constant = set(to_spec(over_schema(OmegaConf.to_container(OmegaConf.load(run_dir / "config.yaml")))).columns)
    return frame[[c for c in frame.columns if c not in constant and frame[c].dtype.kind in "fiu"]]


def flat_config(run_dir: Path) -> dict[str, str]:
    plain = OmegaConf.to_container(OmegaConf.load(run_dir / "config.yaml"))
    found = {}
    stack = [("", plain)]
    while stack:
        prefix, node = stack.pop()
        for key, value in node.items():
            if prefix == "" and key in ("resume", "progress", "logger"):
                continue
            if isinstance(value, dict):
                stack.append((f"{prefix}{key}.", value))
            else:
                found[f"{prefix}{key}"] = "null" if value is None else str(value)
    return found


def assert_mlflow_holds(client: MlflowClient, run_id: str, run_dir: Path) -> None:
    table = metric_columns(run_dir)
    for column in table.columns.drop("generation"):
        history = sorted((m.step, m.value) for m in client.get_metric_history(run_id, column))
        expected = [(int(g), float(v)) for g, v in zip(table["generation"], table[column], strict=True)
                    if not np.isnan(v)]
        assert [s for s, _ in history] == [s for s, _ in expected], column
        if column != "seconds":  # a resumed run re-records its last generations with their new times
            assert [v for _, v in history] == pytest.approx([v for _, v in expected], rel=1e-12), column


def tensorboard_scalars(folder: Path) -> EventAccumulator:
    events = EventAccumulator(str(folder), size_guidance={"scalars": 0, "images": 0})
    events.Reload()
    return events


def mlflow_picture_steps(client: MlflowClient, run_id: str) -> list[int]:
    """The steps of the run's policy pictures, from the names MLflow gives their files (every one, repeats kept)."""
    names = [Path(a.path).name for a in client.list_artifacts(run_id, "images")]
    return sorted(int(name.split("+")[2]) for name in names if name.startswith("policy+step+") and
                  name.endswith(".png"))


def png_pixels(data: bytes | Path) -> np.ndarray:
    from PIL import Image

    with Image.open(io.BytesIO(data) if isinstance(data, bytes) else data) as image:
        return np.asarray(image.convert("RGB"))


@pytest.fixture(scope="module")
def finished(stores, tmp_path_factory) -> Path:
    run_dir = tmp_path_factory.mktemp("runs") / "one"
    run(compose(tracked(stores, "generations=6", "logger.policy_every=4")), run_dir)
    return run_dir


def test_mlflow_holds_every_generation_the_config_and_the_outputs(stores, finished):
    client, runs = mlflow_runs(stores[0], finished)
    assert len(runs) == 1
    found = runs[0]
    assert found.info.status == "FINISHED"
    assert_mlflow_holds(client, found.info.run_id, finished)
    assert found.data.params == flat_config(finished)
    assert {found.data.tags[k] for k in ("experiment", "game", "seed")} == {"cube", "pig", "0"}
    assert found.data.tags["judge"] == "simulated vs population"
    artifacts = {a.path for a in client.list_artifacts(found.info.run_id)}
    assert artifacts == {"summary.json", "best.npy", "winrate.png", "config.yaml", "report.txt", "policy.png",
                         "images"}


def test_tensorboard_holds_every_generation_and_the_config(stores, finished):
    folder = stores[1] / "cube" / finished.name
    events = tensorboard_scalars(folder)
    table = metric_columns(finished)
    for column in table.columns.drop("generation"):
        expected = [(int(g), float(v)) for g, v in zip(table["generation"], table[column], strict=True)
                    if not np.isnan(v)]
        scalars = events.Scalars(column)
        assert [e.step for e in scalars] == [s for s, _ in expected], column
        assert [e.value for e in scalars] == pytest.approx([v for _, v in expected], rel=1e-6), column  # float32
    hparams = EventAccumulator(str(folder / "hparams"))
    hparams.Reload()
    assert hparams.PluginTagToContent("hparams")


def test_the_champions_policy_picture_every_few_generations_and_at_the_end(stores, finished, tmp_path):
    """logger.policy_every=4 in a run of 6 generations: the champion's picture at generations 0 and 4 and, at the
    end, best.npy's at 6 (also MLflow's policy.png), the same pixels in both trackers."""
    champion = policy_picture(np.load(finished / "best.npy"), "roll_hold")
    assert champion.shape == (360, 3 * 504, 3)  # the boundary at three opponent scores, side by side
    client, runs = mlflow_runs(stores[0], finished)
    run_id = runs[0].info.run_id
    assert mlflow_picture_steps(client, run_id) == [0, 4, 6]
    assert np.array_equal(png_pixels(Path(client.download_artifacts(run_id, "policy.png", str(tmp_path)))), champion)
    last = next(a.path for a in client.list_artifacts(run_id, "images") if a.path.endswith(".png")
                and "+step+6+" in a.path)
    assert np.array_equal(png_pixels(Path(client.download_artifacts(run_id, last, str(tmp_path)))), champion)
    images = tensorboard_scalars(stores[1] / "cube" / finished.name).Images("policy")
    assert [image.step for image in images] == [0, 4, 6]
    assert np.array_equal(png_pixels(images[-1].encoded_image_string), champion)
    first = png_pixels(images[0].encoded_image_string)
    assert first.shape == champion.shape and first.std() > 0


def test_pictures_are_drawn_beside_the_loop_and_sent_at_their_generations_step(stores, tmp_path, monkeypatch):
    """Drawing on the run's own process fails here, and no picture is ready while the loop runs: each is drawn by
    the painter's worker and sent at the end, at the step of the generation whose champion it shows."""
    draw = pictures.policy_picture

    def not_here(*args):
        raise AssertionError("a policy picture drawn on the run's process")

    monkeypatch.setattr(pictures, "policy_picture", not_here)
    monkeypatch.setattr(painter.Painter, "ready", lambda self: [])
    run_dir = tmp_path / "beside"
    run(compose(tracked(stores, "generations=4", "logger=tensorboard", "logger.policy_every=2")), run_dir)
    images = tensorboard_scalars(stores[1] / "cube" / run_dir.name).Images("policy")
    assert [image.step for image in images] == [0, 2, 4]
    last = draw(np.load(run_dir / "best.npy"), "roll_hold")  # the champion of generation 4, the last
    assert np.array_equal(png_pixels(images[-1].encoded_image_string), last)


def test_where_no_worker_process_can_start_pictures_are_drawn_inline_said_once(stores, tmp_path, monkeypatch,
                                                                               caplog):
    def daemonic(*args, **kwargs):
        raise AssertionError("daemonic processes are not allowed to have children")

    monkeypatch.setattr(painter, "ProcessPoolExecutor", daemonic)
    run_dir = tmp_path / "inline"
    with caplog.at_level(logging.INFO, logger="ga_pig.track"):
        run(compose(tracked(stores, "generations=4", "logger=tensorboard", "logger.policy_every=2")), run_dir)
    said = [r.getMessage() for r in caplog.records if r.name == "ga_pig.track"]
    assert len(said) == 1 and "daemonic" in said[0] and "\n" not in said[0]
    images = tensorboard_scalars(stores[1] / "cube" / run_dir.name).Images("policy")
    assert [image.step for image in images] == [0, 2, 4]


def test_a_second_send_repeats_nothing(stores, finished):
    client, runs = mlflow_runs(stores[0], finished)
    before = {c: len(client.get_metric_history(runs[0].info.run_id, c)) for c in ("seconds", "diversity")}
    event_files = sorted((stores[1] / "cube" / finished.name).rglob("events.*"))
    track_main([str(finished)])
    client, again = mlflow_runs(stores[0], finished)
    assert [r.info.run_id for r in again] == [runs[0].info.run_id]
    assert {c: len(client.get_metric_history(runs[0].info.run_id, c)) for c in before} == before
    assert len(client.list_artifacts(runs[0].info.run_id)) == 7
    assert mlflow_picture_steps(client, runs[0].info.run_id) == [0, 4, 6]
    assert sorted((stores[1] / "cube" / finished.name).rglob("events.*")) == event_files


def test_a_send_fills_the_generations_a_tracker_lacks_between_those_it_holds(stores, finished, tmp_path):
    from tensorboardX import SummaryWriter

    run_dir = shutil.copytree(finished, tmp_path / "holes")
    with SummaryWriter(str(stores[1] / "cube" / run_dir.name)) as writer:  # generations 0 and 2 held, 1 missing
        for generation in (0, 2):
            writer.add_scalar("diversity", 0.5, global_step=generation)
    track_main([str(run_dir), "--tensorboard"])
    steps = [e.step for e in tensorboard_scalars(stores[1] / "cube" / run_dir.name).Scalars("diversity")]
    assert sorted(steps) == list(range(7))


def test_a_store_lost_mid_run_costs_one_warning_and_the_rest_is_sent_afterwards(stores, tmp_path, monkeypatch,
                                                                                   caplog):
    run_dir = tmp_path / "lost"
    send = mlflow_run_module.MLflowRun.send

    def lost_after_two(self, steps):
        if steps[0][0] >= 2:
            raise ConnectionError("the tracking server went away")
        send(self, steps)

    monkeypatch.setattr(mlflow_run_module.MLflowRun, "send", lost_after_two)
    monkeypatch.setattr(track, "SEND_EVERY_S", 0.0)  # each row sent as it comes
    with caplog.at_level(logging.WARNING, logger="ga_pig.track"):
        summary = run(compose(tracked(stores, "generations=6", "logger=mlflow")), run_dir)
    assert summary["generations"] == 6 and (run_dir / "best.npy").is_file()
    warnings = [r for r in caplog.records if r.name == "ga_pig.track"]
    assert len(warnings) == 1 and "\n" not in warnings[0].getMessage()
    assert "generation 2" in warnings[0].getMessage() and "python -m ga_pig.track" in warnings[0].getMessage()
    client, runs = mlflow_runs(stores[0], run_dir)
    assert [m.step for m in client.get_metric_history(runs[0].info.run_id, "seconds")] == [0, 1]
    assert runs[0].info.status == "RUNNING"  # the store never heard the end
    monkeypatch.setattr(mlflow_run_module.MLflowRun, "send", send)
    track_main([str(run_dir)])
    client, runs = mlflow_runs(stores[0], run_dir)
    assert len(runs) == 1 and runs[0].info.status == "FINISHED"
    assert_mlflow_holds(client, runs[0].info.run_id, run_dir)


def test_a_live_run_sends_its_rows_together(stores, tmp_path, monkeypatch):
    """The first row at once (the run shows up), then those recorded within SEND_EVERY_S together, at the end."""
    batches, send = [], mlflow_run_module.MLflowRun.send

    def counted(self, values):
        batches.append(sorted({step for step, _, _ in values}))
        send(self, values)

    monkeypatch.setattr(mlflow_run_module.MLflowRun, "send", counted)
    monkeypatch.setattr(track, "SEND_EVERY_S", 3600.0)
    run(compose(tracked(stores, "generations=4", "logger=mlflow")), tmp_path / "batched")
    assert batches == [[0], [1, 2, 3, 4]]


def test_a_resumed_run_continues_its_mlflow_run_and_tensorboard_steps(stores, tmp_path):
    run_dir = tmp_path / "resumed"
    run(compose(tracked(stores, "generations=3")), run_dir)
    run(compose([f"resume={run_dir}", "generations=6", "progress=false"]), run_dir,
        [f"resume={run_dir}", "generations=6", "progress=false"])
    client, runs = mlflow_runs(stores[0], run_dir)
    assert len(runs) == 1
    assert_mlflow_holds(client, runs[0].info.run_id, run_dir)
    events = tensorboard_scalars(stores[1] / "cube" / run_dir.name)
    assert [e.step for e in events.Scalars("diversity")] == list(range(7))
    # the policy pictures (logger.policy_every=250): generation 0, each end, none repeated; the outputs replaced
    assert mlflow_picture_steps(client, runs[0].info.run_id) == [0, 3, 6]
    assert [image.step for image in events.Images("policy")] == [0, 3, 6]
    picture = client.download_artifacts(runs[0].info.run_id, "policy.png", str(tmp_path))
    assert np.array_equal(png_pixels(Path(picture)), policy_picture(np.load(run_dir / "best.npy"), "roll_hold"))
    summary = client.download_artifacts(runs[0].info.run_id, "summary.json", str(tmp_path))
    assert Path(summary).read_bytes() == (run_dir / "summary.json").read_bytes()
    # the HParams view reads each final number at its latest step: the second end's, beside the first's
    ended = json.loads((run_dir / "summary.json").read_text())
    final = tensorboard_scalars(stores[1] / "cube" / run_dir.name / "hparams")
    for key in ("champion_best_ever", "final_mean"):
        assert [e.step for e in final.Scalars(f"final/{key}")] == [3, 6]
        assert final.Scalars(f"final/{key}")[-1].value == pytest.approx(ended[key], rel=1e-6)
    assert [e.step for e in events.Tensors("report/text_summary")] == [3, 6]


def test_a_sweeps_jobs_are_one_experiment_and_one_tensorboard_folder(stores, tmp_path):
    sweep = tmp_path / "2026-01-01_00-00-00"
    for job, mutation in enumerate((0.01, 0.05)):
        run_dir = sweep / f"{job}_cube"
        (run_dir / ".hydra").mkdir(parents=True)
        OmegaConf.save({"hydra": {"mode": "MULTIRUN"}}, run_dir / ".hydra" / "hydra.yaml")  # as Hydra writes it
        run(compose(tracked(stores, "generations=1", f"mutation={mutation}")), run_dir)
    client = MlflowClient(tracking_uri=stores[0])
    experiment = client.get_experiment_by_name(f"cube sweep {sweep.name}")
    runs = client.search_runs([experiment.experiment_id])
    assert sorted(r.data.params["mutation"] for r in runs) == ["0.01", "0.05"]
    assert sorted(p.name for p in (stores[1] / sweep.name).iterdir()) == ["0_cube", "1_cube"]


@pytest.mark.parametrize("uri, why", [
    ("http://127.0.0.1:{port}", "expected an MLflow store that can be opened and written to; MlflowException: API"),
    ("foo://", "expected an MLflow store that can be opened and written to; UnsupportedModelRegistryStoreURIException"),
    ("file://{tmp}/mlruns", "expected an MLflow store that can be opened and written to; MlflowException: The "
                            "filesystem tracking backend"),
    ("sqlite:///{tmp}/a_file/x.db", "expected a database in a directory that can be written; {tmp}/a_file is a file"),
    ("sqlite:///nonexistent/dir/x.db", "expected a database in a directory that exists; sqlite:/// is followed by a "
                                       "path relative to {tmp}, where nonexistent/dir is not a directory"),
    ("sqlite://", "expected a database file"),
])
def test_a_store_mlflow_cannot_open_and_write_is_refused_in_one_line_making_nothing(uri, why, tmp_path, monkeypatch,
                                                                                   capsys):
    from ga_pig.runs.command import check as check_command

    monkeypatch.chdir(tmp_path)
    (tmp_path / "a_file").touch()
    with socket.socket() as free:  # a port nothing listens on
        free.bind(("127.0.0.1", 0))
        uri = uri.format(tmp=tmp_path, port=free.getsockname()[1])
    with pytest.raises(SystemExit) as refused:
        check_command(["experiment=cube", "logger=mlflow", f"logger.tracking_uri={uri}"])
    said = capsys.readouterr().err
    assert refused.value.code == 2 and said.count("\n") == 1
    assert said.startswith(f"ga_pig: config key 'logger.tracking_uri' = {uri!r}: {why.format(tmp=tmp_path)}")
    assert [p.name for p in tmp_path.iterdir()] == ["a_file"]


def test_credentials_in_the_tracking_uri_are_refused_without_being_shown():
    cfg = compose(["logger=mlflow", "logger.tracking_uri=http://alice:s3cret@mlflow.example.org"])
    with pytest.raises(ValueError, match="MLFLOW_TRACKING_PASSWORD") as refused:
        check(cfg)
    assert "s3cret" not in str(refused.value) and "alice" not in str(refused.value)


def test_the_command_line_refuses_a_hydra_folder_by_name(stores, finished, tmp_path, capsys):
    hydra = tmp_path / "run" / ".hydra"
    hydra.mkdir(parents=True)
    shutil.copy(finished / "config.yaml", hydra / "config.yaml")  # Hydra keeps the run's config there too
    with pytest.raises(SystemExit) as refused:
        track_main([str(hydra)])
    said = capsys.readouterr().err
    assert refused.value.code == 2 and said.count("\n") == 1
    assert f".hydra/ is Hydra's record of the run in '{hydra.parent}'" in said
    assert mlflow_runs(stores[0], hydra)[1] == []


def test_the_command_line_takes_several_loggers_and_refuses_a_misspelt_one(capsys):
    from ga_pig.runs.command import check_overrides

    assert check_overrides(["logger=[tensorboard,mlflow]"], False) == [["logger=[tensorboard,mlflow]"]]
    with pytest.raises(SystemExit) as refused:
        check_overrides(["logger=[tensorboard,mlfow]"], False)
    assert refused.value.code == 2 and "(did you mean 'mlflow'?)" in capsys.readouterr().err


def test_a_run_killed_with_rows_waiting_leaves_no_process_and_the_resume_sends_every_row_once(stores, tmp_path):
    """SIGKILL within the 5-second batch, the checkpoint holding rows MLflow was never sent: no process of the run
    outlives it (the painter's worker, multiprocessing's resource tracker), and the resume and a later
    ``ga_pig.track`` leave MLflow holding every row of the table exactly once."""
    import psutil

    from ga_pig.evolve.outputs import load_checkpoint

    run_dir = tmp_path / "killed"
    process = subprocess.Popen([sys.executable, "-m", "ga_pig", *tracked(stores, "logger=mlflow", "generations=100000",
                                                                     "checkpoint_every=1", "logger.policy_every=1"),
                                f"hydra.run.dir={run_dir}"], cwd=tmp_path, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        deadline = time.monotonic() + 240
        while not (run_dir / "checkpoint.npz").is_file() and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(1.0)  # the first row went at once; those since wait for the 5-second batch
        helpers = psutil.Process(process.pid).children(recursive=True)
        started = [" ".join(helper.cmdline()) for helper in helpers]
    finally:
        process.kill()
        process.wait()
    assert any("spawn_main" in command for command in started)  # the painter's worker
    assert psutil.wait_procs(helpers, timeout=30)[1] == []  # none left alive
    checkpoint = load_checkpoint(run_dir / "checkpoint.npz")
    client, runs = mlflow_runs(stores[0], run_dir)
    held = [m.step for m in client.get_metric_history(runs[0].info.run_id, "diversity")]
    assert len(held) < len(checkpoint["records"])  # rows the killed run never sent
    resume = [f"resume={run_dir}", f"generations={checkpoint['generation'] + 1}", "progress=false"]
    run(compose(resume), run_dir, resume)
    for _ in range(2):  # after the resume; and after a second send, which finds nothing to add
        client, runs = mlflow_runs(stores[0], run_dir)
        assert len(runs) == 1 and runs[0].info.status == "FINISHED"
        assert_mlflow_holds(client, runs[0].info.run_id, run_dir)
        track_main([str(run_dir)])
