"""The human study as a web instrument: ``python -m ga_pig.study`` serves a study of Pig to many
participants at once, every decision stored server-side with the terminal's columns.

* [`config`][ga_pig.study.config] — the typed Hydra schema (``conf/study.yaml``) and its checks;
* [`store`][ga_pig.study.store] — the database (SQLite by default, any SQLAlchemy URL);
* [`flow`][ga_pig.study.flow] — a participant's path: consent, rules, questions, games, completion;
* [`app`][ga_pig.study.app] — the web server (Starlette) and its participant routes;
* [`pages`][ga_pig.study.pages] and [`text`][ga_pig.study.text] — the pages (Jinja2 templates) and their words;
* [`admin`][ga_pig.study.admin] — the admin page and downloads, behind a password;
* [`export`][ga_pig.study.export] — the tables, for the admin page and ``python -m ga_pig.study.export``;
* [`serve`][ga_pig.study.serve] — a study's directory, database and server, started from its config.

The games are played by [`ga_pig.play.state`][ga_pig.play.state]'s step function, the terminal's too.
"""
