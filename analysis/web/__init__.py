"""``biriba serve``: the analyzer, a game and a review as a local web page, with a JSON API.

:mod:`analysis.web.app` is the FastAPI application (the pages in ``static/`` and the
routes under ``/api``), :mod:`analysis.web.games` the games it holds (files in a folder of
the server's own, by an unguessable id) and the seat's view of each, :mod:`analysis.web.gate`
the limit of one search at a time per process, :mod:`analysis.web.schemas` the request
bodies. The optional extra: ``pip install -e ".[web]"``.
"""
