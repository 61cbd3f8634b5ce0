"""``python -m ga_pig.study.password``: the hash of an admin password, for the study config's
``admin_password_hash`` (the password is read without echo; the hash alone goes in the config)."""

from __future__ import annotations

import getpass
import sys

from ga_pig.study.admin import hash_password
from ga_pig.study.config import MIN_PASSWORD

if __name__ == "__main__":
    first = getpass.getpass("admin password: ") if sys.stdin.isatty() else sys.stdin.readline().rstrip("\n")
    if len(first) < MIN_PASSWORD:
        sys.exit(f"ga_pig: the admin password must have at least {MIN_PASSWORD} characters (it has {len(first)})")
    print(f"admin_password_hash: '{hash_password(first)}'")
