"""Collection: the OpenSpiel wrapper is an optional extra; without open-spiel installed its
module is not imported for doctests (tests/test_openspiel.py skips itself)."""

import importlib.util

collect_ignore = [] if importlib.util.find_spec("pyspiel") else ["solver/openspiel_game.py"]
