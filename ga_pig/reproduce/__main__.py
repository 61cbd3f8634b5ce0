"""``python -m ga_pig.reproduce``: see [`ga_pig.reproduce`][ga_pig.reproduce]."""

from ga_pig.reproduce import main

main()
