"""``python -m ga_pig.reproduce``: see :mod:`ga_pig.reproduce`."""

from ga_pig.reproduce import main

main()
