"""Participants driven through a [`Study`][ga_pig.study.flow.Study] in-process, as the server's requests would."""

from ga_pig.study.flow import Study


def start(study: Study, pid: str, answers: dict | None = None) -> str:
    """Take participant ``pid`` to their first game; their key."""
    key = study.enter(pid)
    study.consent(key, True)
    study.rules_read(key)
    if study.plan.cfg.questions:
        study.answer(key, answers or {"stated_risk": "n", "answer_q2": "a", "answer_q3": ""})
    return key


def play_out(study: Study, key: str, hold_at: int = 20) -> int:
    """Play the participant's games to the end holding at ``hold_at``; the roll/hold moves made."""
    moves = 0
    view = study.game(key)
    while True:
        if view["over"]:
            answer = study.move(key, view["token"], "next")
            if answer.get("done"):
                return moves
        else:
            answer = study.move(key, view["token"], "roll" if view["k"] < hold_at else "hold")
            moves += 1
        view = answer["game"]
