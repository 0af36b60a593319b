"""The reference engine (bench/frozen_engine.py): today's engine as it stood at a fixed
commit, run from that commit's files and not from the working tree's."""

from __future__ import annotations

import subprocess

import pytest

from bench.frozen_engine import FROZEN, MissingCommit, argv, environment, extracted


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    try:
        return extracted(FROZEN, tmp_path_factory.mktemp("frozen") / "engine")
    except MissingCommit as missing:  # a shallow clone: the next test shows the message
        pytest.skip(str(missing))


def test_the_reference_runs_from_the_commits_files(reference):
    where = subprocess.run(
        [*argv([])[:1], "-c", "import gobang.ai.brain as brain; print(brain.__file__)"],
        env=environment(reference), cwd=reference, capture_output=True, text=True, check=True)
    assert where.stdout.strip() == str(reference / "gobang" / "ai" / "brain.py")


def test_the_reference_plays_a_move_over_the_gomocup_protocol(reference):
    played = subprocess.run(argv(["--level", "8", "--seed", "1"]), env=environment(reference),
                            cwd=reference, input="START 15\nINFO timeout_turn 300\nBEGIN\nEND\n",
                            capture_output=True, text=True, timeout=60, check=True)
    answers = played.stdout.split()
    assert answers[0] == "OK"
    x, y = (int(part) for part in answers[1].split(","))
    assert 0 <= x < 15 and 0 <= y < 15


def test_a_commit_the_clone_lacks_is_said(tmp_path):
    with pytest.raises(MissingCommit, match="not in this clone"):
        extracted("0" * 40, tmp_path / "engine")
