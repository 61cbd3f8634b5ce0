"""Play Pig in the terminal against any strategy or another person, and record every decision
(the human study of [Exeter optimal §2.4], as an instrument): ``python -m ga_pig.play [key=value ...]``.
[`ga_pig.play.synthetic`][ga_pig.play.synthetic] has model players whose truth is known, for tests and study design.

Nothing here is imported by the rest of ga_pig; [`load_play`][ga_pig.analysis.load_play] reads the files.
"""
