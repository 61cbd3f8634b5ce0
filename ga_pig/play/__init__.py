"""Play Pig in the terminal against any strategy or another person, and record every decision
(the human study of [Exeter optimal §2.4], as an instrument): ``python -m ga_pig.play [key=value ...]``.

* [`ga_pig.play.config`][ga_pig.play.config] — the typed schema of a session and its checks.
* [`ga_pig.play.opponents`][ga_pig.play.opponents] — opponent specs (``optimal``, ``hold_at:N``, a run's strategy, ...).
* [`ga_pig.play.dice`][ga_pig.play.dice] — rolls drawn by the program (seeded) or entered from real dice.
* [`ga_pig.play.advice`][ga_pig.play.advice] — exact win probabilities of rolling and holding, from optimal play.
* [`ga_pig.play.record`][ga_pig.play.record] — the session's files, appended decision by decision.
* [`ga_pig.play.table`][ga_pig.play.table] — the game itself: turns, decisions, rules.
* [`ga_pig.play.screen`][ga_pig.play.screen] — the terminal: what is shown and which keys are read.
* [`ga_pig.play.synthetic`][ga_pig.play.synthetic] — synthetic players and simulated sessions, for tests and study
  design.

Nothing here is imported by the rest of ga_pig; [`load_play`][ga_pig.analysis.load_play] reads the files.
"""
