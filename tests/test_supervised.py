"""The supervised pipeline (train/supervised.py) and what it added to the engine: labelled
shards from self-play without benchmark positions, the fit, the race net in the evaluator."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "train"))

import supervised

from nardy import BACKGAMMON, Position
from nardy.engine.evaluator import evaluator, for_net
from nardy.engine.features import INPUTS, encode, sides_array
from nardy.engine.net import Net


def _generate(out: Path, seed: int = 3, net: str | None = None) -> None:
    args = argparse.Namespace(
        variant="backgammon",
        out=out,
        minutes=0.001,  # one game
        seed=seed,
        label_ply=0,
        rollout=0,
        truncate=0,
        shard=5,
        net=net,
    )
    supervised.generate(args)


def _shard_ids(out: Path) -> list[str]:
    data = supervised.load_shards(sorted(out.glob("shard-*.npz")))
    return [
        supervised.after_id(BACKGAMMON, (bytes(m), bytes(t)))
        for m, t in zip(data["mine"], data["theirs"], strict=True)
    ]


def test_shards_hold_labelled_positions_the_net_values(tmp_path: Path) -> None:
    _generate(tmp_path)
    data = supervised.load_shards(sorted(tmp_path.glob("shard-*.npz")))
    assert len(data["mine"]) >= 5 and len(data["mine"]) % 5 == 0
    pairs = [(bytes(m), bytes(t)) for m, t in zip(data["mine"], data["theirs"], strict=True)]
    assert all(supervised.trainable(BACKGAMMON, p) for p in pairs)
    assert len(set(pairs)) == len(pairs)  # each position once
    # 0-ply labels are the shipped evaluator's values of the positions, for the mover.
    expected = evaluator("backgammon").after(BACKGAMMON, pairs, 0)
    np.testing.assert_allclose(data["targets"], expected, atol=1e-6)


def test_a_net_of_the_last_round_labels_the_next(tmp_path: Path) -> None:
    """``--net PATH,RACE``: that net and its race net play and label, not the shipped one."""
    net, race = Net.random(INPUTS, 8, seed=4, scale=0.5), Net.random(INPUTS, 8, seed=5)
    net.save(tmp_path / "net.npz")
    race.save(tmp_path / "race.npz")
    _generate(tmp_path / "out", net=f"{tmp_path / 'net.npz'},{tmp_path / 'race.npz'}")
    paths = sorted((tmp_path / "out").glob("shard-*.npz"))
    data = supervised.load_shards(paths)
    pairs = [(bytes(m), bytes(t)) for m, t in zip(data["mine"], data["theirs"], strict=True)]
    expected = for_net(net, BACKGAMMON, race).after(BACKGAMMON, pairs, 0)
    np.testing.assert_allclose(data["targets"], expected, atol=1e-6)
    shipped = evaluator("backgammon").after(BACKGAMMON, pairs, 0)
    assert np.abs(data["targets"] - shipped).max() > 0.05
    with np.load(paths[0]) as first:
        assert str(first["labels"]).startswith("ply:0:") and "race.npz" in str(first["labels"])


def test_relabel_gives_the_same_positions_other_labels(tmp_path: Path) -> None:
    """``relabel``: each shard's positions, in order, labelled as asked, under its own name;
    a shard already written is kept (a stopped run goes on where it was)."""
    _generate(tmp_path / "a")
    net = Net.random(INPUTS, 8, seed=6, scale=0.5)
    net.save(tmp_path / "net.npz")
    args = argparse.Namespace(
        variant="backgammon",
        data=tmp_path / "a",
        out=tmp_path / "b",
        label_ply=0,
        rollout=0,
        truncate=0,
        net=str(tmp_path / "net.npz"),
    )
    supervised.relabel(args)
    names = sorted(p.name for p in (tmp_path / "a").glob("shard-*.npz"))
    assert sorted(p.name for p in (tmp_path / "b").glob("shard-*.npz")) == names
    before = supervised.load_shards(sorted((tmp_path / "a").glob("shard-*.npz")))
    after = supervised.load_shards(sorted((tmp_path / "b").glob("shard-*.npz")))
    for key in ("mine", "theirs", "classes"):
        np.testing.assert_array_equal(before[key], after[key])
    pairs = [(bytes(m), bytes(t)) for m, t in zip(after["mine"], after["theirs"], strict=True)]
    expected = for_net(net, BACKGAMMON).after(BACKGAMMON, pairs, 0)
    np.testing.assert_allclose(after["targets"], expected, atol=1e-6)
    first = tmp_path / "b" / names[0]
    stamp = first.stat().st_mtime_ns
    supervised.relabel(args)
    assert first.stat().st_mtime_ns == stamp


def test_benchmark_positions_never_reach_the_shards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _generate(tmp_path / "a")
    ids = _shard_ids(tmp_path / "a")
    monkeypatch.setattr(supervised, "benchmark_ids", lambda key: frozenset(ids[:3]))
    _generate(tmp_path / "b")  # the same game again, three of its positions now benchmark's
    again = _shard_ids(tmp_path / "b")
    assert not set(ids[:3]) & set(again)
    assert set(ids[3:]) & set(again)


def test_the_held_out_tenth_is_chosen_by_position() -> None:
    rng = np.random.default_rng(1)
    mine = rng.integers(0, 4, size=(4000, 26), dtype=np.uint8)
    theirs = rng.integers(0, 4, size=(4000, 26), dtype=np.uint8)
    out = supervised.held_out(mine, theirs)
    assert 0.07 < out.mean() < 0.13
    assert (supervised.held_out(mine[::-1], theirs[::-1]) == out[::-1]).all()


def test_gradients_are_the_cross_entropys() -> None:
    net = Net.random(6, 4, seed=2, scale=0.5)
    rng = np.random.default_rng(3)
    x = rng.random((7, 6), dtype=np.float32)
    targets = rng.random((7, 5), dtype=np.float32)

    def loss() -> float:
        y = net.forward(x).astype(np.float64)
        return float(-np.sum(targets * np.log(y) + (1 - targets) * np.log(1 - y)))

    grads, _ = net.gradients(x, targets)
    for param, grad in zip(net.parameters, grads, strict=True):
        flat = param.reshape(-1)
        i = int(np.argmax(np.abs(grad)))
        flat[i] += 1e-2
        up = loss()
        flat[i] -= 2e-2
        down = loss()
        flat[i] += 1e-2
        assert (up - down) / 2e-2 == pytest.approx(float(grad.reshape(-1)[i]), rel=0.05)


def test_fit_learns_another_nets_values_and_keeps_its_best_epoch() -> None:
    rng = np.random.default_rng(4)
    x = rng.random((600, 12), dtype=np.float32)
    teacher = Net.random(12, 8, seed=5, scale=1.0)
    targets = teacher.forward(x)
    holdout = np.arange(600) % 10 == 0
    student = Net.random(12, 8, seed=6)
    best, curve = supervised.fit(
        student, x, targets, holdout, epochs=5, batch=32, rate=0.01, seed=1
    )
    assert curve[-1]["test"] < curve[0]["test"]
    assert supervised.cross_entropy(best, x[holdout], targets[holdout]) == pytest.approx(
        min(c["test"] for c in curve), rel=1e-5
    )


def test_the_evaluator_values_races_by_the_race_net() -> None:
    """A batch of a race and a contact position: each row from its class's net."""
    main, race = Net.random(212, 8, seed=1), Net.random(212, 8, seed=2)
    ev = for_net(main, "backgammon", race)
    contact = BACKGAMMON.start()
    racing = Position.from_points(BACKGAMMON, {6: 8, 8: 7}, {6: 8, 8: 7})
    rows = [encode(sides_array([p.mine]), sides_array([p.theirs])) for p in (racing, contact)]
    mixed = ev.forward(np.concatenate(rows))
    np.testing.assert_allclose(mixed[0], race.forward(rows[0])[0], atol=1e-6)
    np.testing.assert_allclose(mixed[1], main.forward(rows[1])[0], atol=1e-6)
    assert not np.allclose(mixed[0], main.forward(rows[0])[0])


def test_a_bot_plays_with_a_race_net_of_its_own(tmp_path: Path) -> None:
    """bench/strength.py's ``net:PATH,RACE``: the bot's evaluator takes both nets."""
    from nardy.engine.neural import NeuralBot

    main, race = Net.random(212, 8, seed=1), Net.random(212, 8, seed=2)
    main.save(tmp_path / "main.npz")
    race.save(tmp_path / "race.npz")
    bot = NeuralBot.load(tmp_path / "main.npz", race=tmp_path / "race.npz")
    ev = bot.evaluator(BACKGAMMON.start())
    assert ev.race_net is not None and ev.bearoff
    np.testing.assert_array_equal(ev.race_net.w1, race.w1)
    np.testing.assert_array_equal(ev.net.w1, main.w1)
    assert NeuralBot.load(tmp_path / "main.npz").evaluator(BACKGAMMON.start()).race_net is None


def _teacher_shard(tmp_path: Path) -> tuple[np.ndarray, np.ndarray, Net]:
    """A shard of the start's plays labelled by a random net that reads every input."""
    from nardy.engine.evaluator import ROLLS
    from nardy.engine.features import INPUTS

    start = BACKGAMMON.start()
    pairs = [
        pair
        for d1, d2, _ in ROLLS
        for pair in BACKGAMMON.play_paths(start.mine, start.theirs, d1, d2)
    ]
    mine, theirs = sides_array(m for m, _ in pairs), sides_array(t for _, t in pairs)
    teacher = Net.random(INPUTS, 8, seed=8, scale=0.5)  # labels that use the new inputs too
    np.savez_compressed(
        tmp_path / "shard-1-0000.npz",
        mine=mine,
        theirs=theirs,
        targets=teacher.forward(encode(mine, theirs)),
        classes=np.array(["contact"] * len(pairs)),
        variant=np.array("backgammon"),
        labels=np.array("test"),
    )
    return mine, theirs, teacher


def _fit(tmp_path: Path, init: Net, **options: int) -> Net:
    init.save(tmp_path / "init.npz")
    args = argparse.Namespace(
        data=tmp_path,
        cls="all",
        out=tmp_path / "fitted.npz",
        init=str(tmp_path / "init.npz"),
        hidden=options.get("hidden", 0),
        inputs=options.get("inputs", 0),
        epochs=3,
        batch=16,
        rate=0.01,
        seed=1,
    )
    supervised.fit_command(args)
    return Net.load(tmp_path / "fitted.npz")


def _epoch_0_is(net: Net, fitted: Net, mine: np.ndarray, theirs: np.ndarray, teacher: Net) -> None:
    """Epoch 0 of ``fitted``'s curve is ``net``'s loss on the held-out rows (the fit started
    from the same function), and the fit then lowered it."""
    holdout = supervised.held_out(mine, theirs)
    assert holdout.sum() >= 10
    x = encode(mine[holdout], theirs[holdout])
    before = supervised.cross_entropy(net, x[:, : net.inputs], teacher.forward(x))
    curve = json.loads(fitted.meta["curve"])
    assert curve[0]["test"] == pytest.approx(before, rel=1e-6)
    assert min(c["test"] for c in curve[1:]) < curve[0]["test"]


def test_fit_from_a_212_input_net_fits_todays_inputs(tmp_path: Path) -> None:
    """``fit --init`` a net from before the positional inputs: it is widened (zero weights
    for the new inputs, the same function at epoch 0) and the saved net reads them all."""
    from nardy.engine.features import BASE_INPUTS, INPUTS

    mine, theirs, teacher = _teacher_shard(tmp_path)
    old = Net.random(BASE_INPUTS, 8, seed=7)
    wide = _fit(tmp_path, old)
    assert (wide.inputs, old.inputs) == (INPUTS, 212)
    assert wide.meta["widened_from"] == "212"
    assert np.any(wide.w1[BASE_INPUTS:] != 0)  # the new inputs' weights were fitted
    _epoch_0_is(old, wide, mine, theirs, teacher)


def test_fit_with_more_hidden_units_or_fewer_inputs(tmp_path: Path) -> None:
    """``--hidden`` above the init's adds units that change nothing at first (epoch 0 is the
    init's loss) and then learn; ``--inputs`` fits on the encoding's first inputs only."""
    from nardy.engine.features import BASE_INPUTS, INPUTS

    mine, theirs, teacher = _teacher_shard(tmp_path)
    small = Net.random(INPUTS, 8, seed=7)
    big = _fit(tmp_path, small, hidden=12)
    assert (big.inputs, big.hidden, big.meta["hidden_from"]) == (INPUTS, 12, "8")
    assert big.meta["hidden"] == "12"
    assert np.any(big.w2[8:] != 0)  # the new units were given a part
    _epoch_0_is(small, big, mine, theirs, teacher)
    old = Net.random(BASE_INPUTS, 8, seed=7)
    narrow = _fit(tmp_path, old, inputs=BASE_INPUTS)
    assert narrow.inputs == BASE_INPUTS and "widened_from" not in narrow.meta
    _epoch_0_is(old, narrow, mine, theirs, teacher)


def test_more_hidden_units_are_the_same_function() -> None:
    net = Net.random(20, 6, seed=3, scale=0.5)
    x = np.random.default_rng(1).random((50, 20), dtype=np.float32)
    big = net.with_hidden(10, seed=2)
    assert big.hidden == 10 and big.inputs == 20
    np.testing.assert_allclose(big.forward(x), net.forward(x), rtol=1e-6, atol=1e-7)
    assert np.all(big.w2[6:] == 0) and np.any(big.w1[:, 6:] != 0)
    with pytest.raises(ValueError, match="cannot shrink"):
        net.with_hidden(4)
