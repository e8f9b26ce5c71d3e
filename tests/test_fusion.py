"""Reciprocal rank fusion: known rankings give known orders and scores."""

import math

import pytest

from pagelens.retrieve.fusion import RRF_K, channel_ranks, fuse, reciprocal_rank_fusion


def test_agreement_beats_a_single_first_place():
    # "b" is second in both channels, "a" first in one only: agreement wins with k=60.
    fused = reciprocal_rank_fusion({"dense": ["a", "b", "c"], "sparse": ["d", "b", "e"]})
    assert fused[0][0] == "b"
    assert math.isclose(fused[0][1], 2 / (RRF_K + 2))
    assert [d for d, _ in fused[1:3]] == ["a", "d"]  # tied at 1/61: channel order breaks the tie


def test_scores_follow_the_formula():
    fused = dict(reciprocal_rank_fusion({"x": ["a", "b"], "y": ["b"]}, k=10))
    assert math.isclose(fused["a"], 1 / 11)
    assert math.isclose(fused["b"], 1 / 12 + 1 / 11)


def test_weights_change_the_order():
    rankings = {"dense": ["a", "b"], "sparse": ["b", "a"]}
    # Equal weights: a tie (same score, same best rank) broken by channel order -> "a".
    assert [d for d, _ in reciprocal_rank_fusion(rankings)] == ["a", "b"]
    assert [d for d, _ in reciprocal_rank_fusion(rankings, weights={"sparse": 2.0})] == ["b", "a"]
    # A zero weight removes a channel's influence but keeps its candidates.
    only_dense = reciprocal_rank_fusion({"dense": ["a"], "sparse": ["z"]}, weights={"sparse": 0.0})
    assert only_dense == [("a", 1 / 61), ("z", 0.0)]


def test_ties_are_deterministic():
    # Same score and best rank: the channel given first wins, whatever the dict's other content.
    a = reciprocal_rank_fusion({"x": ["b"], "y": ["a"], "z": []})
    assert [d for d, _ in a] == ["b", "a"]
    assert [d for d, _ in reciprocal_rank_fusion({"y": ["a"], "x": ["b"]})] == ["a", "b"]
    # Same score from different ranks (weights): the better single-channel rank wins.
    w = reciprocal_rank_fusion({"x": ["p", "q"], "y": ["r"]}, k=0, weights={"x": 2.0, "y": 1.0})
    assert dict(w)["q"] == dict(w)["r"] == 1.0
    assert [d for d, _ in w] == ["p", "r", "q"]


def test_duplicates_within_a_channel_count_once():
    fused = dict(reciprocal_rank_fusion({"x": ["a", "a", "b"]}))
    assert math.isclose(fused["a"], 1 / 61)
    assert math.isclose(fused["b"], 1 / 63)  # its position, not a compacted rank


def test_per_channel_ranks_are_exposed():
    rankings = {"dense": ["a", "b"], "sparse": ["b"], "caption": ["c", "a"]}
    items = {f.id: f for f in fuse(rankings)}
    assert items["a"].ranks == {"dense": 1, "caption": 2}
    assert items["b"].ranks == {"dense": 2, "sparse": 1}
    assert items["c"].best_rank == 1
    assert channel_ranks(rankings)["a"] == {"dense": 1, "caption": 2}


def test_empty_and_invalid():
    assert reciprocal_rank_fusion({}) == []
    assert reciprocal_rank_fusion({"dense": []}) == []
    with pytest.raises(ValueError, match="k must be"):
        reciprocal_rank_fusion({"a": ["x"]}, k=-1)
