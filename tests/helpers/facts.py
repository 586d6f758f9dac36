"""What a record's facts must show after a piece stopped and the next went on from them."""


def fact_steps(fact):
    """A fact's steps below its class."""
    return tuple(tuple(step) for step in (*fact.get("after", []), fact["step"]))


def none_searched_again(before, after):
    """Every fact kept before is taken up, not searched again: it is still there, the same file,
    unless a fact above it was taken up in its place; a fact new since is one above facts kept
    before (its class was open when the piece stopped, and stands as a premise of its own now
    that it took them up)."""
    was = {fact_steps(f): f["certificate"]["sha256"] for f in before}
    now = {fact_steps(f): f["certificate"]["sha256"] for f in after}
    assert len(now) == len(after)
    for steps, sha256 in was.items():
        assert now.get(steps, sha256) == sha256
        assert steps in now or any(steps[:k] in was for k in range(1, len(steps)))
    for steps in now.keys() - was.keys():
        assert any(other[:len(steps)] == steps for other in was)
