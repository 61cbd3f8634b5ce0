"""The human study as a web instrument: ``python -m ga_pig.study`` serves a study of Pig to many participants at
once, every decision stored server-side with the terminal's columns. A participant's path is
[`ga_pig.study.flow`][ga_pig.study.flow]; [`ga_pig.study.serve`][ga_pig.study.serve] starts the database and the
server of [`ga_pig.study.app`][ga_pig.study.app] from the config.
"""
